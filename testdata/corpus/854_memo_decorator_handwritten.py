"""A hand-written memoize decorator with a cache attribute and statistics."""
import functools


def memoize(func):
    cache = {}

    @functools.wraps(func)
    def wrapper(*args):
        if args in cache:
            wrapper.hits += 1
            return cache[args]
        wrapper.misses += 1
        result = cache[args] = func(*args)
        return result

    wrapper.hits = wrapper.misses = 0
    wrapper.cache = cache
    return wrapper


@memoize
def grid_paths(r, c):
    """Number of monotone paths in an r x c grid."""
    if r == 0 or c == 0:
        return 1
    return grid_paths(r - 1, c) + grid_paths(r, c - 1)


@memoize
def collatz_len(n):
    return 1 if n == 1 else 1 + collatz_len(n // 2 if n % 2 == 0 else 3 * n + 1)


print(grid_paths(10, 10), grid_paths.hits, grid_paths.misses, len(grid_paths.cache))
print(grid_paths.__name__, grid_paths.__doc__)
best = max(range(1, 200), key=collatz_len)
print(best, collatz_len(best), collatz_len.misses > 0)
