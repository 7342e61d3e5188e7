# Iteration skips aliases; __members__ keeps them; len counts canonical members.
from enum import Enum


class Shape(Enum):
    SQUARE = 2
    DIAMOND = 1
    CIRCLE = 3
    ALIAS_FOR_SQUARE = 2


print(list(Shape), len(Shape))
print(list(Shape.__members__), Shape.ALIAS_FOR_SQUARE)
print(Shape(2) is Shape.SQUARE, Shape["ALIAS_FOR_SQUARE"] is Shape.SQUARE)
print([m.name for m in reversed(Shape)], Shape.SQUARE in Shape)
