# A decorator on a class receives the class and may return anything; a
# decorator on a method wraps the function before it becomes a method.
def add_greeting(cls):
    cls.greet = lambda self: f"hello from {type(self).__name__}"
    return cls


def shout(fn):
    def wrapper(self, *a):
        return fn(self, *a).upper()
    return wrapper


@add_greeting
class A:
    @shout
    def name(self):
        return "a"


def replace_with_string(cls):
    return cls.__name__ + "!"


@replace_with_string
class B:
    pass


print(A().greet(), A().name(), B, type(B).__name__)
