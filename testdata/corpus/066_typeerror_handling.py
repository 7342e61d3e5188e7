def add_all(values):
    total = 0
    skipped = []
    for v in values:
        try:
            total += v
        except TypeError:
            skipped.append(v)
    return total, skipped


print(add_all([1, 2, "3", None, 4.5, [6]]))

cases = [
    lambda: "a" + 1,
    lambda: 1 + "a",
    lambda: len(5),
    lambda: None + 1,
    lambda: "x" * "y",
    lambda: sorted([3, "a", 1]),
    lambda: int([1]),
]
for i, fn in enumerate(cases):
    try:
        fn()
    except TypeError as e:
        print(i, "TypeError:", e)
