# Members cannot be reassigned or deleted, and an Enum with members cannot be
# subclassed.
from enum import Enum


class Color(Enum):
    RED = 1


for action in ("reassign", "delete", "subclass"):
    try:
        if action == "reassign":
            Color.RED = 2
        elif action == "delete":
            del Color.RED
        else:
            class More(Color):
                BLUE = 2
    except (AttributeError, TypeError) as e:
        print(action, type(e).__name__, e)
print(Color.RED.value)
