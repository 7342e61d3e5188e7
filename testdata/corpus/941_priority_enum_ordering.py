"""Ordering Enum members by value with functools.total_ordering on the Enum class."""
from enum import Enum
from functools import total_ordering


@total_ordering
class Severity(Enum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    def __lt__(self, other):
        if type(other) is not Severity:
            return NotImplemented
        return self.value < other.value


issues = [("disk", Severity.MEDIUM), ("auth", Severity.CRITICAL), ("ui", Severity.LOW), ("db", Severity.HIGH)]
for name, sev in sorted(issues, key=lambda i: i[1], reverse=True):
    print(f"{sev.name:<9}{name}")
print(max(s for _, s in issues), Severity.LOW < Severity.HIGH, Severity.HIGH >= Severity.MEDIUM)
print([s.name for s in Severity if s >= Severity.HIGH])
try:
    Severity.LOW < 2
except TypeError as e:
    print("TypeError:", e)
