# Fields of a dataclass subclass come after the base's, an overridden field
# keeps its original position, and a non-default field after a default one
# inherited is an error.
from dataclasses import dataclass, fields


@dataclass
class Base:
    a: int
    b: int = 2


@dataclass
class Child(Base):
    c: int = 3
    a: int = 10


print([f.name for f in fields(Child)], Child(), Child(1, 2, 3))
try:
    @dataclass
    class Bad(Base):
        d: int
except TypeError as e:
    print(type(e).__name__, e)
