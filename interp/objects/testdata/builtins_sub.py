from collections import Counter, OrderedDict, defaultdict, namedtuple


class Registry(dict):
    def register(self, name):
        def deco(fn):
            self[name] = fn
            return fn
        return deco

    def __missing__(self, key):
        return f"<no {key}>"


reg = Registry()


@reg.register("double")
def double(x):
    return x * 2


print(reg["double"](4), reg["nothing"], len(reg), "double" in reg, list(reg), isinstance(reg, dict))
print(sorted(reg.keys()), reg.get("nope", 0))


class Stack(list):
    def push(self, x):
        self.append(x)
        return self

    def peek(self):
        return self[-1]


s = Stack([1, 2])
s.push(3).push(4)
print(s, s.peek(), len(s), s[0], s[1:3], sum(s), isinstance(s, list), type(s).__name__)
s.pop()
print(s, [x * 10 for x in s], s == [1, 2, 3])


class Tags(set):
    def add_all(self, *xs):
        for x in xs:
            self.add(x)


t = Tags()
t.add_all(3, 1, 3)
print(sorted(t), len(t), 1 in t)


class Point(namedtuple("Point", "x y")):
    def dist(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


p = Point(3, 4)
print(p, p.dist(), p.x, p[1], tuple(p), p._asdict())


class WordCount(Counter):
    def top(self, n=1):
        return [w for w, _ in self.most_common(n)]


wc = WordCount("a b a c a b".split())
print(wc.top(2), wc["a"], wc["zzz"])


class Tree(defaultdict):
    def __init__(self):
        super().__init__(Tree)


tree = Tree()
tree["a"]["b"]["c"] = 1
print(tree["a"]["b"]["c"], "a" in tree)


class LRU(OrderedDict):
    def __init__(self, cap):
        super().__init__()
        self.cap = cap

    def put(self, k, v):
        self[k] = v
        self.move_to_end(k)
        if len(self) > self.cap:
            self.popitem(last=False)


cache = LRU(2)
cache.put("a", 1)
cache.put("b", 2)
cache.put("c", 3)
print(list(cache.keys()), cache.cap)


class Celsius(float):
    def to_f(self):
        return self * 9 / 5 + 32


c = Celsius(100)
print(c.to_f(), c + 1, isinstance(c, float))


class Name(str):
    def shout(self):
        return self.upper() + "!"


n = Name("ana")
print(n.shout(), n.title(), len(n), n == "ana")
