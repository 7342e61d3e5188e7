# lru_cache statistics: hits, misses, maxsize, currsize; keyword order makes
# distinct keys; cache_clear resets; unhashable arguments are a TypeError.
from functools import lru_cache, cache


@lru_cache(maxsize=2)
def f(a, b=0):
    return a + b


f(1); f(1); f(2); f(1, b=0); f(b=0, a=1); f(3)
print(f.cache_info())
print(f.cache_info().hits, f.cache_info()._fields, type(f.cache_info()).__name__)
f.cache_clear()
print(f.cache_info(), f.cache_parameters())


@cache
def g(x):
    return x


g(1); g(1)
print(g.cache_info(), g.__wrapped__(5))
try:
    g({})
except TypeError as e:
    print(type(e).__name__, e)
