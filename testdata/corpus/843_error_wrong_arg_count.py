"""A helper class whose method is called with one argument too many."""


class Rectangle:
    def __init__(self, w, h):
        self.w, self.h = w, h

    def scale(self, factor):
        return Rectangle(self.w * factor, self.h * factor)

    def area(self):
        return self.w * self.h


r = Rectangle(2, 3)
print(r.area(), r.scale(2).area())
try:
    Rectangle(1)
except TypeError as e:
    print("TypeError:", e)
print(r.scale(2, 3).area())
