# make_dataclass builds a dataclass from field specs.
from dataclasses import make_dataclass, field, fields

Point = make_dataclass("Point", ["x", ("y", int), ("z", int, field(default=0))], frozen=True)
p = Point(1, 2)
print(p, Point.__name__, [f.name for f in fields(Point)], hash(p) == hash(Point(1, 2, 0)))
try:
    p.x = 5
except AttributeError as e:
    print(type(e).__name__, e)
