def flatten(items, depth=None):
    """Flatten nested lists/tuples; strings stay whole. depth=None means fully."""
    for item in items:
        if isinstance(item, (list, tuple)) and (depth is None or depth > 0):
            yield from flatten(item, None if depth is None else depth - 1)
        else:
            yield item


nested = [1, [2, 3, [4, [5, 6]], 7], (8, 9), "ten", [[["eleven"]]], []]
print(list(flatten(nested)))
print(list(flatten(nested, depth=1)))
print(list(flatten(nested, depth=2)))
print(sum(x for x in flatten(nested) if isinstance(x, int)))


def deep(n):
    value = [n]
    for i in range(n - 1, 0, -1):
        value = [i, value]
    return value


print(deep(4), list(flatten(deep(4))))
print(list(flatten(deep(200)))[-3:])
gen = flatten([[1, [2]], 3])
print(next(gen), next(gen), next(gen), next(gen, "done"))
