"""functools.cached_property on a report object, invalidated by deleting the attribute."""
from functools import cached_property


class Dataset:
    def __init__(self, values):
        self.values = values
        self.computations = 0

    @cached_property
    def stats(self):
        self.computations += 1
        n = len(self.values)
        mean = sum(self.values) / n
        return {"n": n, "mean": mean, "max": max(self.values)}

    @property
    def spread(self):
        return self.stats["max"] - self.stats["mean"]


d = Dataset([4, 8, 15, 16, 23, 42])
print(d.stats, d.computations)
print(d.spread, d.stats["n"], d.computations)
d.values.append(100)
print(d.stats["n"], "stale")
del d.stats
print(d.stats["n"], d.computations, "stats" in vars(d))
