"""A singly linked list with __iter__, __len__, __getitem__, __reversed__ and __repr__."""


class Node:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next


class LinkedList:
    def __init__(self, items=()):
        self.head = None
        self._n = 0
        for x in reversed(list(items)):
            self.push(x)

    def push(self, value):
        self.head = Node(value, self.head)
        self._n += 1

    def __iter__(self):
        node = self.head
        out = []
        while node:
            out.append(node.value)
            node = node.next
        return iter(out)

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if i < 0:
            i += self._n
        for j, v in enumerate(self):
            if j == i:
                return v
        raise IndexError("list index out of range")

    def __reversed__(self):
        return iter(list(self)[::-1])

    def __repr__(self):
        return "LinkedList([" + ", ".join(map(repr, self)) + "])"


ll = LinkedList(["a", "b", "c"])
ll.push("z")
print(ll, len(ll), ll[0], ll[-1])
print(list(reversed(ll)), sorted(ll), "b" in ll, "q" in ll)
print(list(enumerate(ll))[:2], ",".join(ll))
try:
    ll[10]
except IndexError as e:
    print("IndexError:", e)
