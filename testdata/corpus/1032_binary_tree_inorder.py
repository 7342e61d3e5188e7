from dataclasses import dataclass
from typing import Optional, Iterator


@dataclass
class Node:
    key: int
    left: Optional["Node"] = None
    right: Optional["Node"] = None


class BST:
    def __init__(self, keys=()):
        self.root = None
        self.size = 0
        for k in keys:
            self.insert(k)

    def insert(self, key):
        self.size += 1
        if self.root is None:
            self.root = Node(key)
            return
        node = self.root
        while True:
            side = "left" if key < node.key else "right"
            child = getattr(node, side)
            if child is None:
                setattr(node, side, Node(key))
                return
            node = child

    def __iter__(self) -> Iterator[int]:
        yield from self._inorder(self.root)

    def _inorder(self, node):
        if node:
            yield from self._inorder(node.left)
            yield node.key
            yield from self._inorder(node.right)

    def levels(self):
        level = [self.root] if self.root else []
        while level:
            yield [n.key for n in level]
            level = [c for n in level for c in (n.left, n.right) if c]


tree = BST([50, 30, 70, 20, 40, 60, 80, 35])
print(list(tree), tree.size)
print(list(tree.levels()))
print([k for k in tree if k % 20 == 0], max(tree), 35 in tree)
it = iter(tree)
print(next(it), next(it), next(it))
print(list(BST()), list(BST().levels()))
