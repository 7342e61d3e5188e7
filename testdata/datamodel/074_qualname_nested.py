# __name__ and __qualname__ of nested classes, methods and local functions;
# __module__ is __main__.
class Outer:
    class Inner:
        def method(self):
            def local():
                pass
            return local


print(Outer.__name__, Outer.Inner.__name__, Outer.Inner.__qualname__)
print(Outer.Inner.method.__qualname__, Outer.Inner().method().__qualname__)
print(Outer.__module__, Outer.Inner, repr(Outer))


def factory():
    class Local:
        pass
    return Local


print(factory().__qualname__, factory())
