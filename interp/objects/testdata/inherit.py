from abc import ABC, abstractmethod


class Animal:
    def __init__(self, name):
        self.name = name

    def speak(self):
        return "..."

    def intro(self):
        return f"{self.name} says {self.speak()}"


class Dog(Animal):
    def __init__(self, name, tricks=()):
        super().__init__(name)
        self.tricks = list(tricks)

    def speak(self):
        return "woof"


class Puppy(Dog):
    def speak(self):
        return super().speak() + "!"

    def intro(self):
        return Animal.intro(self) + " (puppy)"


p = Puppy("rex", ["sit"])
print(p.intro(), p.tricks)
print([c.__name__ for c in Puppy.__mro__])
print([c.__name__ for c in Puppy.mro()])
print(isinstance(p, Animal), issubclass(Puppy, Dog), issubclass(Dog, Puppy))


class A:
    def who(self):
        return ["A"]


class B(A):
    def who(self):
        return ["B"] + super().who()


class C(A):
    def who(self):
        return ["C"] + super().who()


class D(B, C):
    def who(self):
        return ["D"] + super(D, self).who()


print(D().who(), [k.__name__ for k in D.__mro__])

try:
    class Bad(A, B):
        pass
except TypeError as e:
    print("TypeError:", str(e).replace("\n", " "))


class LoggerMixin:
    def log(self, msg):
        self.messages = getattr(self, "messages", [])
        self.messages.append(f"[{type(self).__name__}] {msg}")


class Service(LoggerMixin, Animal):
    pass


s = Service("svc")
s.log("start")
s.log("stop")
print(s.messages, s.intro())


class Shape(ABC):
    @abstractmethod
    def area(self):
        ...

    def describe(self):
        return f"{type(self).__name__}: {self.area():.2f}"


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3.14159 * self.r ** 2


print(Circle(2).describe())
try:
    Shape()
except TypeError as e:
    print("TypeError:", e)


class Half(Shape):
    pass


try:
    Half()
except TypeError as e:
    print("TypeError:", e)


class Base:
    registry = []

    def __init_subclass__(cls, kind="plain", **kwargs):
        super().__init_subclass__(**kwargs)
        cls.kind = kind
        Base.registry.append(cls.__name__)


class Json(Base, kind="json"):
    pass


class Yaml(Base):
    pass


print(Base.registry, Json.kind, Yaml.kind)


class Temperature:
    def __init__(self, celsius):
        self.celsius = celsius

    @classmethod
    def from_fahrenheit(cls, f):
        return cls((f - 32) * 5 / 9)

    @staticmethod
    def valid(c):
        return c >= -273.15


class Precise(Temperature):
    pass


t = Precise.from_fahrenheit(212)
print(type(t).__name__, t.celsius, Temperature.valid(-300), t.valid(0))
