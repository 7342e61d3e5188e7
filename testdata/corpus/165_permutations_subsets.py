from typing import List


def permutations(items: List) -> List[List]:
    if len(items) <= 1:
        return [list(items)]
    result = []
    for i, item in enumerate(items):
        for rest in permutations(items[:i] + items[i + 1:]):
            result.append([item] + rest)
    return result


def subsets(items: List) -> List[List]:
    result = [[]]
    for item in items:
        result += [s + [item] for s in result]
    return result


def combinations(items: List, k: int) -> List[List]:
    if k == 0:
        return [[]]
    if len(items) < k:
        return []
    first, rest = items[0], items[1:]
    return [[first] + c for c in combinations(rest, k - 1)] + combinations(rest, k)


print(permutations([1, 2, 3]))
print(["".join(p) for p in permutations(list("abc"))])
print(len(permutations(list(range(6)))))
print(subsets(["x", "y", "z"]))
print(combinations([1, 2, 3, 4], 2), len(combinations(list(range(10)), 3)))
