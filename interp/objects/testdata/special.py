import bisect
import heapq
import json



class Money:
    def __init__(self, cents):
        self.cents = cents

    def __repr__(self):
        return f"Money({self.cents})"

    def __str__(self):
        return f"${self.cents / 100:.2f}"

    def __format__(self, spec):
        if spec == "short":
            return f"{self.cents}c"
        return format(str(self), spec)

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.cents == other.cents

    def __lt__(self, other):
        return self.cents < other.cents

    def __hash__(self):
        return hash(self.cents)

    def __add__(self, other):
        if isinstance(other, int):
            return Money(self.cents + other)
        return Money(self.cents + other.cents)

    def __radd__(self, other):
        return self.__add__(other)

    def __mul__(self, n):
        return Money(self.cents * n)

    __rmul__ = __mul__

    def __neg__(self):
        return Money(-self.cents)

    def __abs__(self):
        return Money(abs(self.cents))

    def __bool__(self):
        return self.cents != 0

    def __round__(self, n=0):
        return Money(round(self.cents, n - 2))


m = [Money(250), Money(100), Money(999)]
print(m, str(m[0]), f"{m[0]} {m[1]:short} {m[2]:>10}")
print(sorted(m), min(m), max(m), sum(m), sum(m, Money(1)))
print(Money(5) == Money(5), Money(5) != Money(6), Money(5) == 5, Money(1) in m, Money(250) in m)
print({Money(1): "a", Money(1): "b"}, len({Money(1), Money(1), Money(2)}))
print(m[0] + m[1], 3 * m[1], m[1] * 2, -m[0], abs(-m[0]), bool(Money(0)), round(Money(1234), 1))
h = list(m)
heapq.heapify(h)
print(heapq.heappop(h), heapq.nsmallest(2, m))
xs = sorted(m)
bisect.insort(xs, Money(500))
print(xs, bisect.bisect_left(xs, Money(500)))
print([m[0]] == [Money(250)], (Money(1), 2) < (Money(2), 1))
print(json.dumps({"price": m[0]}, default=lambda o: o.cents))


class Bag:
    def __init__(self, *items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __contains__(self, x):
        return x in self.items

    def __getitem__(self, i):
        return self.items[i]

    def __setitem__(self, i, v):
        self.items[i] = v

    def __delitem__(self, i):
        del self.items[i]

    def __reversed__(self):
        return iter(self.items[::-1])

    def __call__(self, x):
        return x in self


b = Bag(3, 1, 2)
print(len(b), list(b), 2 in b, 9 in b, b[0], sorted(b), list(reversed(b)), b(1))
b[0] = 7
del b[1]
print(b.items, bool(Bag()), [x * 2 for x in b], max(b), dict(zip(b, "ab")))
a1, a2 = b
print(a1, a2)


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1


print(list(Countdown(3)), next(iter(Countdown(1))), next(Countdown(0), "done"))


class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * 10


print(list(Seq()), 20 in Seq())



class Attr:
    def __getattr__(self, name):
        return name.upper()


print(Attr().hello, getattr(Attr(), "x"))


class Guarded:
    def __setattr__(self, name, value):
        if name.startswith("_"):
            raise AttributeError(f"cannot set {name}")
        object.__setattr__(self, name, value)


g = Guarded()
g.ok = 1
try:
    g._bad = 2
except AttributeError as e:
    print(g.ok, e)


class Acc:
    def __init__(self):
        self.total = 0

    def __iadd__(self, n):
        self.total += n
        return self


acc = Acc()
acc += 5
acc += 6
print(acc.total)
