"""A sparse vector backed by a dict, with dot products, __eq__, __bool__ and __len__."""


class Sparse:
    def __init__(self, entries=None, dim=0):
        self.entries = {i: v for i, v in (entries or {}).items() if v}
        self.dim = dim

    def __len__(self):
        return self.dim

    def __bool__(self):
        return bool(self.entries)

    def __getitem__(self, i):
        if not 0 <= i < self.dim:
            raise IndexError(i)
        return self.entries.get(i, 0)

    def dot(self, other):
        small, big = sorted([self, other], key=lambda s: len(s.entries))
        return sum(v * big.entries.get(i, 0) for i, v in small.entries.items())

    def __mul__(self, k):
        return Sparse({i: v * k for i, v in self.entries.items()}, self.dim)

    def __eq__(self, other):
        return self.dim == other.dim and self.entries == other.entries

    def __repr__(self):
        return f"Sparse({dict(sorted(self.entries.items()))}, dim={self.dim})"


a = Sparse({0: 1, 5: 2, 9: 3}, dim=10)
b = Sparse({5: 4, 9: -1, 3: 0}, dim=10)
print(a, b, len(a), bool(Sparse(dim=3)), bool(b))
print(a.dot(b), a * 2, a * 0, bool(a * 0))
print([a[i] for i in range(10)], a == Sparse({9: 3, 0: 1, 5: 2}, 10))
try:
    a[10]
except IndexError as e:
    print("IndexError:", e)
