"""A storage driver missing two abstract methods; instantiating it is a TypeError."""
from abc import ABC, abstractmethod


class Driver(ABC):
    @abstractmethod
    def read(self, key): ...

    @abstractmethod
    def write(self, key, value): ...

    @abstractmethod
    def delete(self, key): ...


class MemoryDriver(Driver):
    def __init__(self):
        self.d = {}

    def read(self, key):
        return self.d.get(key)

    def write(self, key, value):
        self.d[key] = value

    def delete(self, key):
        self.d.pop(key, None)


class ReadOnlyDriver(Driver):
    def read(self, key):
        return None


m = MemoryDriver()
m.write("a", 1)
print(m.read("a"), m.read("b"))
ro = ReadOnlyDriver()
