"""A plugin base class with two abstract methods; instantiating a half-done plugin fails."""
from abc import ABC, abstractmethod


class Plugin(ABC):
    name = "base"

    @abstractmethod
    def load(self):
        pass

    @abstractmethod
    def run(self, data):
        pass


class Upper(Plugin):
    name = "upper"

    def load(self):
        return True

    def run(self, data):
        return data.upper()


class Half(Plugin):
    name = "half"

    def load(self):
        return True


p = Upper()
print(p.name, p.load(), p.run("hello"))
print(sorted(Plugin.__abstractmethods__))
print(sorted(Half.__abstractmethods__))
plugins = [Upper, Half]
for cls in plugins:
    print("creating", cls.name)
    cls()
