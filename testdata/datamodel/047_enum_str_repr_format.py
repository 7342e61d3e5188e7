# str(), repr(), format() and f-strings of Enum, IntEnum, StrEnum members in 3.11.
from enum import Enum, IntEnum, StrEnum


class E(Enum):
    A = 1


class I(IntEnum):
    A = 1


class S(StrEnum):
    A = "a"


for m in (E.A, I.A, S.A):
    print(type(m).__name__, str(m), repr(m), f"{m}", format(m, ""), "%s" % m, [m])
print(f"{I.A:>4}|{I.A + 1}|{S.A.upper()}|{S.A:>3}|")
