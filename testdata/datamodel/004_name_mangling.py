# __private names in a class body are rewritten to _ClassName__private; a
# subclass's own __private does not collide with its base's.
class Base:
    def __init__(self):
        self.__secret = "base"
        self.__dunder__ = "not mangled"

    def base_secret(self):
        return self.__secret


class Child(Base):
    def __init__(self):
        super().__init__()
        self.__secret = "child"


c = Child()
print(sorted(vars(c)))
print(c.base_secret(), c._Child__secret, c._Base__secret)
try:
    c.__secret
except AttributeError as e:
    print(type(e).__name__, e)
