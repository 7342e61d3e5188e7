"""A ring buffer class; reading past its length raises its own IndexError, uncaught."""


class Ring:
    def __init__(self, size):
        self.size = size
        self.items = []

    def push(self, x):
        self.items.append(x)
        if len(self.items) > self.size:
            self.items.pop(0)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        if not -len(self) <= i < len(self):
            raise IndexError(f"ring index {i} out of range for {len(self)} items")
        return self.items[i]


r = Ring(3)
for x in range(5):
    r.push(x)
print(list(r), r[0], r[-1], len(r))
print(r[3])
