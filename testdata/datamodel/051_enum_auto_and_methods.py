# auto() counts from 1 (after the last int value); members are instances of
# their class with methods, properties and class methods.
from enum import Enum, auto


class Planet(Enum):
    MERCURY = auto()
    VENUS = auto()
    EARTH = 10
    MARS = auto()

    def describe(self):
        return f"{self.name.title()} #{self.value}"

    @property
    def inner(self):
        return self.value < 10

    @classmethod
    def first(cls):
        return next(iter(cls))


print([p.value for p in Planet], Planet.MARS.describe(), Planet.VENUS.inner, Planet.first())
print(type(Planet.EARTH) is Planet, isinstance(Planet.EARTH, Planet), Planet.EARTH.__class__.__name__)
