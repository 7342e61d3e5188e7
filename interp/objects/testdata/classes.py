class Counter:
    """Counts things."""
    total = 0
    kinds = []

    def __init__(self, name, start=0):
        self.name = name
        self.count = start
        Counter.total += 1

    def inc(self, by=1):
        self.count += by
        return self

    def helper(self):
        def inner(x):
            return x * 2
        return inner(self.count)


a = Counter("a")
b = Counter("b", 5)
a.inc().inc(3)
print(a.count, b.count, Counter.total, a.total)
print(a.helper())
a.kinds.append("x")
print(b.kinds, Counter.kinds is a.kinds)
a.total = 99
print(a.total, b.total, Counter.total)
print(type(a) is Counter, type(a).__name__, a.__class__.__name__, Counter.__qualname__)
print(Counter.__doc__, Counter.__module__)
print(vars(b), sorted(a.__dict__))
print(getattr(a, "name"), getattr(a, "missing", "default"), hasattr(a, "inc"), hasattr(a, "nope"))
setattr(a, "extra", 1)
print(a.extra)
delattr(a, "extra")
print(hasattr(a, "extra"))
del a.count
print(hasattr(a, "count"))
print(isinstance(a, (int, Counter)), isinstance(3, Counter), issubclass(Counter, object))


class Secret:
    def __init__(self):
        self.__key = 42
        self._visible = 1

    def key(self):
        return self.__key


s = Secret()
print(s.key(), s._Secret__key, hasattr(s, "__key"), sorted(vars(s)))


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y


p = Slotted(1, 2)
print(p.x + p.y)
try:
    p.z = 3
except AttributeError as e:
    print("AttributeError:", e)


class Outer:
    class Inner:
        def method(self):
            return "inner"

    def make(self):
        return self.Inner()


print(Outer().make().method(), Outer.Inner.__qualname__)


def factory(n):
    class Local:
        size = n

        def double(self):
            return self.size * 2
    return Local


L = factory(21)
print(L().double(), L.__qualname__)


class Shape:
    sides = 0

    def describe(self):
        return f"{type(self).__name__} with {self.sides} sides"

    def max(self):
        return max(self.sides, 1)


class Square(Shape):
    sides = 4


print(Square().describe(), Square().max(), Shape().max())
