from itertools import islice
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Yield lists of at most `size` items."""
    if size < 1:
        raise ValueError("size must be at least 1")
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def record_stream(n):
    for i in range(1, n + 1):
        yield {"id": i, "name": f"user{i:02d}"}


for number, batch in enumerate(chunked(record_stream(11), 4), start=1):
    ids = [r["id"] for r in batch]
    print(f"batch {number}: {len(batch)} rows, ids {ids}")

print(list(chunked("abcdefg", 3)))
print(list(chunked([], 5)))
try:
    list(chunked([1, 2], 0))
except ValueError as e:
    print("ValueError:", e)

lazy = chunked(range(10**9), 1000)
first = next(lazy)
print(len(first), first[0], first[-1], next(lazy)[0])
