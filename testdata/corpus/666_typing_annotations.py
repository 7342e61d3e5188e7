"""Type hints as agents write them, and typing's functional NamedTuple and TypedDict."""
from __future__ import annotations
from typing import Optional, List, Dict, Any, Union, Tuple, Callable, Iterable, TypedDict, NamedTuple, Literal
import typing as t

def f(x: Optional[int] = None, *args: Any, **kw: Dict[str, Any]) -> List[int]:
    """Doc."""
    return [x or 0, len(args), len(kw)]

def g(items: list[dict[str, int]], key: str | None = None) -> tuple[int, ...]:
    return tuple(d.get(key or "a", 0) for d in items)

x: int = 5
y: "List[str]"
print(f(1, 2, 3, a=1), g([{"a": 1}, {"b": 2}]), x, f.__doc__)
Point = NamedTuple("Point", [("x", int), ("y", int)])
p = Point(1, 2)
print(p, p.x)
Mode = Literal["a", "b"]
def h(cb: Callable[[int], int], xs: Iterable[int]) -> list:
    return [cb(v) for v in xs]
print(h(lambda v: v * 2, range(3)))
if __name__ == "__main__":
    print("main", __name__)
print(t.cast(int, "3"), isinstance(3, int))
Point = NamedTuple("Point", [("x", int), ("y", float)])
p = Point(1, 2.5)
print(p, p.x, p._asdict(), Point._fields)
Movie = TypedDict("Movie", {"name": str, "year": int})
m = Movie(name="Blade Runner", year=1982)
print(m, m["year"])
Emp = NamedTuple("Emp", name=str, id=int)
print(Emp("a", 3))
