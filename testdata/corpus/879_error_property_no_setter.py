"""A read-only computed property; assigning to it is an uncaught AttributeError."""


class Circle:
    def __init__(self, radius):
        self.radius = radius

    @property
    def diameter(self):
        return self.radius * 2

    @property
    def area(self):
        return round(3.14159 * self.radius ** 2, 3)


c = Circle(2)
print(c.diameter, c.area)
c.radius = 3
print(c.diameter, c.area)
c.diameter = 10
