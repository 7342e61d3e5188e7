"""Enums with _generate_next_value_ producing lowercase names, plus members with methods."""
from enum import Enum, auto


class Named(Enum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower().replace("_", "-")


class Region(Named):
    EU_WEST = auto()
    US_EAST = auto()
    AP_SOUTH = auto()

    @property
    def continent(self):
        return {"eu": "Europe", "us": "America", "ap": "Asia"}[self.value[:2]]


class Step(Enum):
    FIRST = auto()
    SECOND = auto()
    THIRD = auto()


print([r.value for r in Region], Region("us-east"), Region.AP_SOUTH.continent)
print([(s.name, s.value) for s in Step], Step(2))
lookup = {r.value: r for r in Region}
print(lookup["eu-west"] is Region.EU_WEST, Region.EU_WEST.name.title())
print(Region.__members__["US_EAST"], type(Region.US_EAST).__name__, isinstance(Region.EU_WEST, Named))
