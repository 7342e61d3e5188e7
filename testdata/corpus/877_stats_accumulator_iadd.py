"""A running statistics accumulator supporting +=, + and sum() via __radd__."""
import math


class Stats:
    def __init__(self, values=()):
        self.n = 0
        self.total = 0.0
        self.sq = 0.0
        for v in values:
            self += v

    def __iadd__(self, other):
        if isinstance(other, Stats):
            self.n += other.n
            self.total += other.total
            self.sq += other.sq
        else:
            self.n += 1
            self.total += other
            self.sq += other * other
        return self

    def __add__(self, other):
        out = Stats()
        out += self
        out += other
        return out

    def __radd__(self, other):
        return self if other == 0 else NotImplemented

    @property
    def mean(self):
        return self.total / self.n if self.n else math.nan

    @property
    def std(self):
        return math.sqrt(self.sq / self.n - self.mean ** 2)

    def __repr__(self):
        return f"Stats(n={self.n}, mean={self.mean:.3f}, std={self.std:.3f})"


a = Stats([1, 2, 3, 4])
b = Stats([10, 20])
print(a, b)
print(a + b, sum([a, b, Stats([5])]))
a += 5
print(a, Stats().n, math.isnan(Stats().mean))
