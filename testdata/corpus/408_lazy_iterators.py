"""enumerate, zip and reversed are single-pass iterators, lazy as in CPython."""


def load(record_id):
    print(f"  loading {record_id}")
    return {"id": record_id, "size": record_id * 10}


print("enumerate over a generator interleaves work and results:")
for position, record in enumerate(load(i) for i in [3, 1, 2]):
    print(f"  #{position}: {record}")

names = ["ada", "bob", "cy"]
scores = [91, 78, 85]
pairs = zip(names, scores)
print("first pair:", next(pairs))
print("rest:", list(pairs))
print("again:", list(pairs))

numbered = enumerate(names, start=1)
print(next(numbered), next(numbered), list(numbered))

backwards = reversed(scores)
print(next(backwards), list(backwards))

table = dict(zip(names, scores))
print(table, sorted(zip(scores, names), reverse=True)[0])
try:
    list(zip(names, scores[:2], strict=True))
except ValueError as err:
    print("ValueError:", err)
print([f"{i}:{n}" for i, n in enumerate(names)], list(zip(*[(1, "a"), (2, "b")])))
