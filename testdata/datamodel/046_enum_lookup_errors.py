# Enum lookup by value (call) and by name (subscript) and their errors.
from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2


print(Color(1), Color["GREEN"], Color.RED.name, Color.RED.value)
for probe in [lambda: Color(5), lambda: Color("RED"), lambda: Color["PURPLE"], lambda: Color[1]]:
    try:
        probe()
    except (ValueError, KeyError) as e:
        print(type(e).__name__, e)
print(getattr(Color, "RED"), hasattr(Color, "BLUE"))
