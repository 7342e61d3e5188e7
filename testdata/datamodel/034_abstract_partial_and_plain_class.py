# A subclass that implements some abstract methods stays abstract;
# @abstractmethod on a class not derived from ABC is not enforced.
from abc import ABC, abstractmethod


class Base(ABC):
    @abstractmethod
    def f(self): ...

    @abstractmethod
    def g(self): ...


class Half(Base):
    def f(self):
        return 1


class NotABC:
    @abstractmethod
    def f(self): ...


try:
    Half()
except TypeError as e:
    print(type(e).__name__, e)
print(NotABC().f(), isinstance(Half, type), issubclass(Half, ABC))


class Empty(ABC):
    pass


print(type(Empty()).__name__)
