"""Memoised recursion with functools.lru_cache and cache_info between calls."""
from functools import lru_cache, cache


@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@cache
def ways(n, coins=(1, 2, 5)):
    if n == 0:
        return 1
    if n < 0 or not coins:
        return 0
    return ways(n - coins[0], coins) + ways(n, coins[1:])


print(fib(30))
print(fib.cache_info())
print(fib(31), fib.cache_info().hits)
fib.cache_clear()
print(fib.cache_info())
print([ways(n) for n in range(0, 12)])
print(ways.cache_info().currsize > 0)


@lru_cache(maxsize=2)
def square(x):
    print("computing", x)
    return x * x


for x in [1, 2, 1, 3, 2, 1]:
    square(x)
print(square.cache_info())
