"""Sub-generators return a value to the delegating generator through yield from."""


def averager(label):
    total, count = 0, 0
    while True:
        value = yield
        if value is None:
            break
        total += value
        count += 1
    return label, count, total / count if count else 0.0


def grouper(results):
    while True:
        label = yield
        if label is None:
            return len(results)
        result = yield from averager(label)
        results.append(result)


data = {"girls;kg": [40.9, 38.5, 44.3], "boys;kg": [39.0, 40.8, 43.2, 40.8], "empty": []}
results = []
group = grouper(results)
next(group)
for key, values in data.items():
    group.send(key)
    for v in values:
        group.send(v)
    group.send(None)
for label, count, mean in results:
    print(f"{label:10} {count} {mean:.2f}")
try:
    group.send(None)
except StopIteration as stop:
    print("groups:", stop.value)


def numbered(items):
    for i, item in enumerate(items):
        yield f"{i}:{item}"
    return len(items)


def both():
    a = yield from numbered("xy")
    b = yield from numbered(["p", "q", "r"])
    yield f"total {a + b}"


print(list(both()))
