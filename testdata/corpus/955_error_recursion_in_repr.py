"""A tree node whose __repr__ shows children; a deliberately bad node raises in __repr__."""


class Node:
    def __init__(self, name, *children):
        self.name = name
        self.children = list(children)

    def __repr__(self):
        if not self.children:
            return self.name
        return f"{self.name}({', '.join(map(repr, self.children))})"


class BadNode(Node):
    def __repr__(self):
        raise RuntimeError(f"cannot show {self.name}")


tree = Node("root", Node("a", Node("a1")), Node("b"))
print(tree, [tree.children[1]])
print(str(tree) == repr(tree), len(repr(tree)))
print(Node("top", BadNode("bad")))
