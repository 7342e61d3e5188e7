from functools import lru_cache
from itertools import islice


def collatz(n):
    while n != 1:
        yield n
        n = n // 2 if n % 2 == 0 else 3 * n + 1
    yield 1


@lru_cache(maxsize=None)
def steps(n):
    return sum(1 for _ in collatz(n)) - 1


print(list(collatz(6)))
print(list(islice(collatz(27), 10)), "...")
print("27 takes", steps(27), "steps, peak", max(collatz(27)))
best = max(range(1, 1000), key=steps)
print("longest below 1000:", best, steps(best))
print([n for n in range(1, 30) if steps(n) > 20])
lengths = (steps(n) for n in range(1, 11))
print(dict(zip(range(1, 11), lengths)))
