"""A __slots__ Point: attributes limited, no __dict__, and an AttributeError for extras."""


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"

    def __eq__(self, other):
        return (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))


class Point3(Point):
    __slots__ = ("z",)

    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z


p = Point(1, 2)
p.x += 10
print(p, hasattr(p, "__dict__"), Point.__slots__)
try:
    p.z = 3
except AttributeError as e:
    print("AttributeError:", e)
q = Point3(1, 2, 3)
print(q, q.z, [getattr(q, n) for n in ("x", "y", "z")])
print(len({Point(0, 0), Point(0, 0), Point(1, 0)}))
