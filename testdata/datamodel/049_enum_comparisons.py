# Enum members compare by identity, not by value; IntEnum compares as int;
# plain Enum has no ordering.
from enum import Enum, IntEnum


class E(Enum):
    A = 1
    B = 2


class I(IntEnum):
    A = 1
    B = 2


print(E.A == 1, E.A == E.A, E.A is E(1), E.A != E.B)
print(I.A == 1, I.B > I.A, I.A < 2, sorted([I.B, 0, I.A]), I.A + I.B, I.B * 2, max(I))
try:
    E.A < E.B
except TypeError as e:
    print(type(e).__name__, e)
print({E.A: "x"}[E(1)], {1: "int"}[I.A], hash(I.A) == hash(1))
