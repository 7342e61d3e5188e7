"""A 2D vector class with arithmetic, reflected and in-place operators."""
import math


class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, other):
        if not isinstance(other, Vec):
            return NotImplemented
        return Vec(self.x + other.x, self.y + other.y)

    def __radd__(self, other):
        if other == 0:
            return self
        return NotImplemented

    def __sub__(self, other):
        return Vec(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __abs__(self):
        return math.hypot(self.x, self.y)

    def __eq__(self, other):
        return isinstance(other, Vec) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"


a, b = Vec(1, 2), Vec(3, 4)
print(a + b, a - b, a * 3, 2 * b, -a, abs(b))
print(sum([a, b, Vec(0, 1)]))
path = Vec(0, 0)
for step in [a, b, a]:
    path += step
print(path, path == Vec(5, 8), path != Vec(5, 8))
print(len({a, Vec(1, 2), b}), {Vec(0, 0): "origin"}[Vec(0, 0)])
try:
    a + 1
except TypeError as e:
    print("TypeError:", e)
