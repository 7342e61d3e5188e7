"""Parsing weekday names into an Enum; an unknown value is not caught."""
from enum import Enum


class Day(Enum):
    MON = 1
    TUE = 2
    WED = 3
    THU = 4
    FRI = 5

    def is_weekend(self):
        return False

    def next(self):
        return Day(self.value % 5 + 1)


print([d.name for d in Day], Day.FRI.next(), Day(2).next().name)
print(Day["WED"].value, Day.MON.is_weekend())
for raw in [3, 5, 7]:
    print(raw, Day(raw))
