"""Recursive combinatorics generators built with yield from."""
from itertools import permutations as std_permutations


def permutations(items):
    if len(items) <= 1:
        yield list(items)
        return
    for i, head in enumerate(items):
        for rest in permutations(items[:i] + items[i + 1:]):
            yield [head] + rest


def subsets(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for s in subsets(rest):
        yield s
        yield [first] + s


def compositions(n, parts):
    """All ways to write n as an ordered sum of `parts` positive ints."""
    if parts == 1:
        yield (n,)
        return
    for first in range(1, n - parts + 2):
        yield from ((first,) + tail for tail in compositions(n - first, parts - 1))


print(["".join(p) for p in permutations("abc")])
print(len(list(permutations(list(range(5))))), [tuple(p) for p in permutations([1, 2, 3])] == list(std_permutations([1, 2, 3])))
print(sorted(subsets([1, 2, 3]), key=lambda s: (len(s), s)))
print(list(compositions(5, 3)))
budget_choices = [s for s in subsets([("ads", 40), ("seo", 25), ("events", 60)]) if sum(c for _, c in s) <= 70]
print(sorted(tuple(n for n, _ in s) for s in budget_choices))
