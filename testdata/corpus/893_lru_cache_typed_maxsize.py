"""lru_cache options: typed=True, a small maxsize with eviction, and cache_parameters."""
from functools import lru_cache

calls = []


@lru_cache(maxsize=3, typed=True)
def describe(x):
    calls.append(x)
    return f"{type(x).__name__}:{x}"


for x in [1, 1.0, 1, "1", True, 2, 1]:
    describe(x)
print(calls)
print(describe.cache_info())
print(describe.cache_parameters())


@lru_cache
def slow_square(n):
    return n * n


print([slow_square(n) for n in (3, 3, 4)], slow_square.cache_info())
print(slow_square.__wrapped__(5), slow_square.cache_info().currsize)
try:
    describe([1, 2])
except TypeError as e:
    print("TypeError:", e)
