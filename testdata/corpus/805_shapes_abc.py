"""Shapes on an abstract base class, area ordering and a polymorphic report."""
from abc import ABC, abstractmethod
import math


class Shape(ABC):
    @abstractmethod
    def area(self):
        ...

    def describe(self):
        return f"{type(self).__name__} with area {self.area():.2f}"


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


class Square(Rect):
    def __init__(self, side):
        super().__init__(side, side)


shapes = [Circle(1), Rect(2, 3), Square(2), Circle(0.5)]
for s in sorted(shapes, key=lambda s: s.area()):
    print(s.describe())
print(isinstance(shapes[2], Rect), issubclass(Square, Shape))
print([c.__name__ for c in Square.__mro__])
try:
    Shape()
except TypeError as e:
    print("TypeError:", e)
