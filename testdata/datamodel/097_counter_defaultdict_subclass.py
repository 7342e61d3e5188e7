# Subclasses of Counter, defaultdict and OrderedDict keep their behaviour and
# their subclass type where the base's methods construct copies.
from collections import Counter, defaultdict, OrderedDict


class Tally(Counter):
    def top(self):
        return self.most_common(1)[0]


class Tree(defaultdict):
    def __init__(self):
        super().__init__(Tree)


class LRU(OrderedDict):
    def touch(self, k):
        self.move_to_end(k)


t = Tally("abracadabra")
print(t.top(), type(t).__name__, type(t + t).__name__, type(t.copy()).__name__, t["z"])
tree = Tree()
tree["a"]["b"]["c"] = 1
print(type(tree["a"]).__name__, tree["a"]["b"]["c"], len(tree["x"]), "x" in tree)
l = LRU(a=1, b=2, c=3)
l.touch("a")
print(list(l), type(l).__name__, l)
