"""Dispatching on dataclass instances with match class patterns and guards."""
from dataclasses import dataclass


@dataclass
class Point:
    x: float
    y: float


@dataclass
class Circle:
    center: Point
    r: float


@dataclass
class Line:
    start: Point
    end: Point


def describe(shape):
    match shape:
        case Point(x=0, y=0):
            return "origin"
        case Point(x, y) if x == y:
            return f"diagonal point {x}"
        case Point():
            return f"point {shape.x},{shape.y}"
        case Circle(Point(0, 0), r):
            return f"centred circle r={r}"
        case Circle(center=c, r=r) if r > 10:
            return f"big circle at {c.x},{c.y}"
        case Line(Point(x1, _), Point(x2, _)) if x1 == x2:
            return "vertical line"
        case Line(start, end):
            return f"line {start} -> {end}"
        case _:
            return "unknown"


items = [Point(0, 0), Point(2, 2), Point(1, 5), Circle(Point(0, 0), 3),
         Circle(Point(1, 1), 20), Circle(Point(1, 1), 2), Line(Point(1, 0), Point(1, 9)),
         Line(Point(0, 0), Point(3, 4)), "text"]
for item in items:
    print(describe(item))
print(Point.__match_args__, Circle.__match_args__)
