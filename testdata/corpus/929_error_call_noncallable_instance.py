"""Calling an instance whose class has no __call__ fails with a TypeError."""


class Greeter:
    def __init__(self, greeting):
        self.greeting = greeting

    def greet(self, name):
        return f"{self.greeting}, {name}!"


class LoudGreeter(Greeter):
    def __call__(self, name):
        return self.greet(name).upper()


hello = LoudGreeter("hello")
print(hello("ana"), callable(hello))
plain = Greeter("hi")
print(plain.greet("bo"), callable(plain))
print(plain("cy"))
