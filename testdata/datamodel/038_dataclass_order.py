# order=True compares fields as a tuple; comparing with another type is a
# TypeError; without order=True < is not supported.
from dataclasses import dataclass


@dataclass(order=True)
class V:
    major: int
    minor: int


@dataclass
class U:
    a: int


print(V(1, 2) < V(1, 3), V(2, 0) > V(1, 9), V(1, 1) <= V(1, 1), sorted([V(2, 1), V(1, 5), V(1, 2)]))
for a, b in [(V(1, 1), (1, 1)), (U(1), U(2))]:
    try:
        a < b
    except TypeError as e:
        print(type(e).__name__, e)
