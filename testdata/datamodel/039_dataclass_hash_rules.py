# __hash__ of a dataclass: eq=True (default) and not frozen sets it to None;
# frozen=True generates it; eq=False keeps object's; unsafe_hash forces one.
from dataclasses import dataclass


@dataclass
class Plain:
    a: int


@dataclass(frozen=True)
class Frozen:
    a: int


@dataclass(eq=False)
class NoEq:
    a: int


@dataclass(unsafe_hash=True)
class Forced:
    a: int


print(Plain.__hash__, Frozen(1).__hash__() == Frozen(1).__hash__(), NoEq.__hash__ is object.__hash__)
print(hash(Forced(3)) == hash(Forced(3)), NoEq(1) == NoEq(1), Plain(1) == Plain(1))
try:
    hash(Plain(1))
except TypeError as e:
    print(type(e).__name__, e)
