"""Prints inside each stage show that a generator pipeline handles one item at a time."""


def source(items):
    for item in items:
        print(f"source -> {item}")
        yield item


def double(values):
    for v in values:
        print(f"  double {v}")
        yield v * 2


def keep_small(values, limit):
    for v in values:
        if v <= limit:
            print(f"    keep {v}")
            yield v
        else:
            print(f"    drop {v}")


pipeline = keep_small(double(source([1, 5, 2, 8])), 10)
print("pipeline built, nothing ran yet")
print("first:", next(pipeline))
print("rest:", list(pipeline))

print("-- list comprehension runs eagerly --")
doubled = [v * 2 for v in source([3, 4])]
print("-- generator expression runs on demand --")
lazy = (v * 2 for v in source([3, 4]))
print("made lazy")
print(sum(lazy))
found = any(v > 3 for v in source([1, 4, 9, 16]))
print("any stopped early:", found)
