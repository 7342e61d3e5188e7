from collections.abc import Iterable, Mapping, Sequence, Hashable, Callable, MutableMapping
import collections.abc
from collections import Counter, deque, OrderedDict, namedtuple


def flatten(obj):
    """Flatten nested iterables, but not strings or mappings."""
    if isinstance(obj, Mapping):
        return [obj]
    if isinstance(obj, Iterable) and not isinstance(obj, (str, bytes)):
        out = []
        for x in obj:
            out.extend(flatten(x))
        return out
    return [obj]


print(flatten([1, [2, (3, [4, "five"])], {"k": 6}, range(7, 9)]))

Point = namedtuple("Point", "x y")
values = [{}, [], (), "s", 1, None, {1}, Counter(), deque(), OrderedDict(), Point(1, 2), len, ([1],)]
for cls in (Mapping, MutableMapping, Sequence, Hashable, Callable, collections.abc.Sized):
    print(f"{cls.__name__:<15}", "".join("Y" if isinstance(v, cls) else "." for v in values))


def describe(x):
    if isinstance(x, collections.abc.Mapping):
        return "mapping of %d" % len(x)
    if isinstance(x, collections.abc.Sequence):
        return "sequence of %d" % len(x)
    if isinstance(x, collections.abc.Set):
        return "set of %d" % len(x)
    return type(x).__name__


print([describe(v) for v in ({"a": 1}, [1, 2], "abc", {3}, 4.5, frozenset())])
