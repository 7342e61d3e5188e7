import json, copy, itertools
from operator import attrgetter, methodcaller
from dataclasses import dataclass, field, asdict
from enum import Enum, auto
from collections import defaultdict

class Color(Enum):
    RED = auto()
    GREEN = auto()

@dataclass(order=True)
class Item:
    priority: int
    name: str = field(compare=False)
    color: Color = field(default=Color.RED, compare=False)
    tags: list = field(default_factory=list, compare=False)

    @property
    def label(self):
        return f"{self.name}#{self.priority}"

class Node:
    count = 0
    def __init__(self, v, children=None):
        self.v = v
        self.children = children or []
        Node.count += 1
    def __repr__(self):
        return f"Node({self.v!r})"
    def __str__(self):
        return f"<{self.v}>"
    def walk(self):
        out = [self.v]
        for c in self.children:
            out.extend(c.walk())
        return out

items = [Item(3, "c"), Item(1, "a", Color.GREEN), Item(2, "b")]
print(sorted(items)[0].label, max(items).name, [i.label for i in sorted(items, key=attrgetter("name"))])
print("%s and %r" % (Node(1), Node(2)), "{} {!r}".format(Node(3), Node(4)), str(Node("x")))
print(*[Node(i) for i in range(3)], sep=", ")
print(", ".join(map(str, [Node(1), Node(2)])))
tree = Node(1, [Node(2, [Node(4)]), Node(3)])
print(tree.walk(), Node.count, tree.__class__.__name__)
print(json.dumps(asdict(items[0]), default=str), json.dumps({"n": tree.v, **{"k": 1}}))
d = copy.deepcopy(tree)
print(d.walk() == tree.walk(), d is tree, d.children[0] is tree.children[0])
groups = defaultdict(list)
for it in items:
    groups[it.color].append(it.name)
print({c.name: v for c, v in groups.items()})
for color, grp in itertools.groupby(sorted(items, key=lambda i: i.color.value), key=attrgetter("color")):
    print(color, [g.name for g in grp])
ops = {"walk": methodcaller("walk")}
print(ops["walk"](tree), getattr(tree, "walk")())
print(isinstance(tree, (Item, Node)), Color.RED in Color, Color["GREEN"].value, Color(1).name)
print(vars(items[1]) == {"priority": 1, "name": "a", "color": Color.GREEN, "tags": []})
print(f"{items[1].color}", f"{Color.GREEN.name.lower()}", repr(Color.RED))
class Stack:
    def __init__(self):
        self._items = []
    def push(self, x):
        self._items.append(x)
        return self
    def __len__(self):
        return len(self._items)
    def __bool__(self):
        return bool(self._items)
s = Stack().push(1).push(2)
print(len(s), bool(s), bool(Stack()), "empty" if not Stack() else "full")
