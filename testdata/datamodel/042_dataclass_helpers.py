# asdict recurses into dataclasses, lists and dicts; astuple too; replace
# makes a new instance and refuses init=False fields; is_dataclass on class
# and instance; fields of a non-dataclass is a TypeError.
from dataclasses import dataclass, field, asdict, astuple, replace, is_dataclass, fields


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Path:
    points: list
    meta: dict = field(default_factory=dict)
    n: int = field(init=False, default=0)


p = Path([Point(1, 2), Point(3, 4)], {"p": Point(0, 0)})
print(asdict(p))
print(astuple(p))
print(replace(Point(1, 2), y=9), is_dataclass(Point), is_dataclass(p), is_dataclass(1))
try:
    replace(p, n=3)
except ValueError as e:
    print(type(e).__name__, e)
try:
    fields(1)
except TypeError as e:
    print(type(e).__name__, e)
try:
    asdict(Point)
except TypeError as e:
    print(type(e).__name__, e)
