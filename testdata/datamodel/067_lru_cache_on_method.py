# lru_cache on a method caches per (self, args); the instance must be hashable.
from functools import lru_cache


class Calc:
    def __init__(self, k):
        self.k = k

    @lru_cache(maxsize=None)
    def mul(self, x):
        print("computing", self.k, x)
        return self.k * x


a, b = Calc(2), Calc(3)
print(a.mul(5), a.mul(5), b.mul(5))
print(Calc.mul.cache_info())


class Unhashable(Calc):
    def __eq__(self, other):
        return True


try:
    Unhashable(1).mul(1)
except TypeError as e:
    print(type(e).__name__, e)
