from typing import Callable, Hashable, Iterable, Iterator, TypeVar

T = TypeVar("T")


def unique(items: Iterable[T], key: Callable[[T], Hashable] = None) -> Iterator[T]:
    """Yield items in first-seen order, skipping ones whose key was seen."""
    seen = set()
    for item in items:
        marker = item if key is None else key(item)
        if marker not in seen:
            seen.add(marker)
            yield item


def unique_justseen(items):
    previous = object()
    for item in items:
        if item != previous:
            yield item
        previous = item


emails = ["Ann@x.com", "bob@y.org", "ann@x.com", "Cy@z.net", "BOB@y.org", "dee@x.com"]
print(list(unique(emails)))
print(list(unique(emails, key=str.lower)))
print(list(unique(emails, key=lambda e: e.split("@")[1])))
print("".join(unique("mississippi")))
print(list(unique_justseen([1, 1, 2, 2, 2, 1, 3, 3])))
rows = [{"id": 3, "v": "a"}, {"id": 1, "v": "b"}, {"id": 3, "v": "c"}]
print(list(unique(rows, key=lambda r: r["id"])))
stream = unique(x % 7 for x in range(10**9))
print([next(stream) for _ in range(7)])
