# Instantiating a class with abstract methods left is a TypeError naming them
# (sorted, "method"/"methods"); a concrete subclass works.
from abc import ABC, abstractmethod


class One(ABC):
    @abstractmethod
    def a(self): ...


class Three(ABC):
    @abstractmethod
    def z(self): ...

    @abstractmethod
    def b(self): ...

    @abstractmethod
    def m(self): ...


class Done(One):
    def a(self):
        return "done"


for cls in (One, Three):
    try:
        cls()
    except TypeError as e:
        print(type(e).__name__, e)
print(Done().a(), sorted(Three.__abstractmethods__), Done.__abstractmethods__)
