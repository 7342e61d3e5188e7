"""A bounded browser history with back/forward built on collections.deque inside a class."""
from collections import deque


class History:
    def __init__(self, limit=3):
        self.back_stack = deque(maxlen=limit)
        self.forward_stack = []
        self.current = None

    def visit(self, url):
        if self.current is not None:
            self.back_stack.append(self.current)
        self.current = url
        self.forward_stack.clear()
        return self

    def back(self):
        if not self.back_stack:
            return self.current
        self.forward_stack.append(self.current)
        self.current = self.back_stack.pop()
        return self.current

    def forward(self):
        if self.forward_stack:
            self.back_stack.append(self.current)
            self.current = self.forward_stack.pop()
        return self.current

    def __repr__(self):
        return f"History(back={list(self.back_stack)}, current={self.current!r}, fwd={self.forward_stack})"


h = History()
for page in ["a", "b", "c", "d", "e"]:
    h.visit(page)
print(h)
print(h.back(), h.back(), h.back(), h.back())
print(h.forward(), h)
h.visit("x")
print(h, h.forward())
