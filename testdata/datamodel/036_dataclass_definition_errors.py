# Errors @dataclass raises while building the class.
from dataclasses import dataclass, field

attempts = []
try:
    @dataclass
    class A:
        items: list = []
except ValueError as e:
    print(type(e).__name__, e)
try:
    @dataclass
    class B:
        a: int = 0
        b: int
except TypeError as e:
    print(type(e).__name__, e)
try:
    @dataclass(order=True, eq=False)
    class C:
        a: int
except ValueError as e:
    print(type(e).__name__, e)
try:
    @dataclass
    class D:
        a: int = field(default=1, default_factory=int)
except ValueError as e:
    print(type(e).__name__, e)
