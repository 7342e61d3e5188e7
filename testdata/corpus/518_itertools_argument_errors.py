import itertools
import json
import random

# Errors a helper reports back to its caller, as CPython words them.
calls = [
    ("combinations", lambda: list(itertools.combinations("abc"))),
    ("islice", lambda: list(itertools.islice([1, 2]))),
    ("count", lambda: itertools.count(start=1, stepp=2)),
    ("json.dumps", lambda: json.dumps({"a": 1}, indnet=2)),
    ("json.loads", lambda: json.loads()),
    ("randint", lambda: random.randint(1)),
    ("sample", lambda: random.sample([1, 2, 3])),
    ("permutations", lambda: list(itertools.permutations("ab", r="x"))),
]
for name, call in calls:
    try:
        call()
        print(name, "ok")
    except TypeError as e:
        print(f"{name}: {e}")
print(list(itertools.combinations("abc", 2)), json.dumps({"b": 1, "a": 2}, sort_keys=1, indent=1))
