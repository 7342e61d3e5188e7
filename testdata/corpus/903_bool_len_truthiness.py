"""Truthiness of user objects: __bool__, __len__ fallback, and neither (always true)."""


class Queue:
    def __init__(self, items=()):
        self.items = list(items)

    def __len__(self):
        return len(self.items)


class Result:
    def __init__(self, ok, value=None):
        self.ok, self.value = ok, value

    def __bool__(self):
        return self.ok


class Plain:
    pass


checks = [Queue(), Queue([1]), Result(False), Result(True, 5), Plain()]
for obj in checks:
    label = type(obj).__name__
    print(f"{label:<7}", bool(obj), "yes" if obj else "no", not obj)
results = [Result(True, 1), Result(False), Result(True, 3)]
print([r.value for r in results if r], any(results), all(results))
print(len(Queue("abc")), Queue() or "empty", (Result(False) and "x") is results[1] or "falsy kept")
q = Queue([0])
while q:
    print("draining", q.items.pop())
