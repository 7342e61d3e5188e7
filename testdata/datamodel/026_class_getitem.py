# __class_getitem__ makes C[int] work on a user class; Generic[T] subclasses
# can be subscripted and still instantiated.
from typing import Generic, TypeVar

T = TypeVar("T")


class Box:
    def __class_getitem__(cls, item):
        return f"{cls.__name__}[{item.__name__}]"


class Typed(Generic[T]):
    def __init__(self, v: T):
        self.v = v


print(Box[int], Box[str])
print(Typed[int](3).v, type(Typed[int](3)).__name__)
try:
    object()[0]
except TypeError as e:
    print(type(e).__name__, e)


class NoGetitem:
    pass


try:
    NoGetitem[int]
except TypeError as e:
    print(type(e).__name__, e)
