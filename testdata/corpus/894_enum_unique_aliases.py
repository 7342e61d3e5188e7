"""Enum aliases, @unique refusing them, and lookups by alias value and name."""
from enum import Enum, unique


class Color(Enum):
    RED = 1
    CRIMSON = 1
    GREEN = 2
    BLUE = 3


print(list(Color), Color.CRIMSON, Color.CRIMSON is Color.RED)
print(Color(1).name, Color["CRIMSON"].name, list(Color.__members__))
try:
    @unique
    class Strict(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError:", e)


@unique
class Size(Enum):
    S = "small"
    M = "medium"
    L = "large"

    @classmethod
    def from_initial(cls, c):
        return cls[c.upper()]

    def __str__(self):
        return self.value


print(Size.from_initial("m"), repr(Size.L), f"{Size.S}", [str(s) for s in Size])
print(Size.M == "medium", Size.M.value == "medium")
try:
    Size.S < Size.L
except TypeError as e:
    print("TypeError:", e)
