# @dataclass generates __init__, __repr__ (with the qualified name) and __eq__
# that compares fields as tuples, only between the same class.
from dataclasses import dataclass


@dataclass
class P:
    x: int
    y: int = 0


@dataclass
class Q:
    x: int
    y: int = 0


class Outer:
    @dataclass
    class Inner:
        v: str = "a"


print(P(1), P(1, 2), repr(P(x=3)), Outer.Inner())
print(P(1) == P(1, 0), P(1) == Q(1), P(1) != P(2), P(1) == (1, 0))
print(P.__eq__(P(1), Q(1)))
