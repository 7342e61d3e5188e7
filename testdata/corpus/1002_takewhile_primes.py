"""Infinite prime generator consumed with takewhile, dropwhile and islice."""
from itertools import takewhile, dropwhile, islice, count


def primes():
    found = []
    for n in count(2):
        if all(n % p for p in takewhile(lambda p: p * p <= n, found)):
            found.append(n)
            yield n


below_50 = list(takewhile(lambda p: p < 50, primes()))
print(len(below_50), below_50)
print(list(islice(dropwhile(lambda p: p < 100, primes()), 5)))

twin_pairs = []
gen = primes()
prev = next(gen)
for p in gen:
    if p - prev == 2:
        twin_pairs.append((prev, p))
    if len(twin_pairs) == 6:
        break
    prev = p
print(twin_pairs)
print(sum(takewhile(lambda p: p < 1000, primes())))
