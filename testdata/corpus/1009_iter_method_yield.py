"""A linked list and a matrix whose __iter__ methods are generators."""


class Node:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next


class LinkedList:
    def __init__(self, *values):
        self.head = None
        for v in reversed(values):
            self.head = Node(v, self.head)

    def __iter__(self):
        node = self.head
        while node is not None:
            yield node.value
            node = node.next

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        return "LinkedList(" + " -> ".join(map(str, self)) + ")"


class Grid:
    def __init__(self, rows):
        self.rows = rows

    def __iter__(self):
        for row in self.rows:
            yield from row

    def cells(self):
        for r, row in enumerate(self.rows):
            for c, value in enumerate(row):
                yield (r, c), value


items = LinkedList(3, 1, 4, 1, 5)
print(items, len(items), list(items), sorted(items), 4 in items, 9 in items)
it = iter(items)
print(next(it), next(it), type(it).__name__)
print(max(items), sum(items), list(zip(items, "abc")))
print(LinkedList(), len(LinkedList()))
g = Grid([[1, 2, 3], [4, 5, 6]])
print(list(g), sum(g), [pos for pos, v in g.cells() if v % 2 == 0])
a, b, *rest = g
print(a, b, rest)
