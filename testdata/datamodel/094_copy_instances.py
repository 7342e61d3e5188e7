# copy.copy shares nested objects, deepcopy copies them and keeps shared
# references shared; __copy__/__deepcopy__ override both.
import copy


class Node:
    def __init__(self, name, children=None):
        self.name = name
        self.children = children or []


class Custom:
    def __init__(self, v):
        self.v = v

    def __copy__(self):
        return Custom("shallow " + self.v)

    def __deepcopy__(self, memo):
        return Custom("deep " + self.v)


leaf = Node("leaf")
root = Node("root", [leaf, leaf])
s, d = copy.copy(root), copy.deepcopy(root)
print(s.children is root.children, d.children is root.children, d.children[0] is d.children[1])
print(d.children[0] is leaf, type(d).__name__, d.name)
print(copy.copy(Custom("x")).v, copy.deepcopy(Custom("x")).v, copy.deepcopy([Custom("y")])[0].v)
