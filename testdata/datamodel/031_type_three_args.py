# type(name, bases, namespace) builds a class like a class statement does.
def speak(self):
    return f"{self.name} says {self.sound}"


Animal = type("Animal", (), {"sound": "...", "speak": speak, "__init__": lambda self, n: setattr(self, "name", n)})
Dog = type("Dog", (Animal,), {"sound": "woof"})
d = Dog("rex")
print(d.speak(), Dog.__name__, Dog.__bases__[0].__name__, [c.__name__ for c in Dog.__mro__])
print(type(d) is Dog, isinstance(d, Animal), type(Dog), type(type))
E = type("E", (ValueError,), {})
try:
    raise E("custom")
except ValueError as e:
    print(type(e).__name__, e)
