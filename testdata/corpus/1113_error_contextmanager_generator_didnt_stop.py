# A @contextmanager generator must yield exactly once; yielding again is a RuntimeError.
from contextlib import contextmanager


@contextmanager
def opened(name, retries):
    for attempt in range(1, retries + 1):
        print(f"open {name} (attempt {attempt})")
        yield name.upper()  # bug: yields once per attempt instead of once in total
        print(f"close {name}")


with opened("config", 1) as handle:
    print("using", handle)
print("first block fine")

with opened("data", 2) as handle:
    print("using", handle)
print("unreachable")
