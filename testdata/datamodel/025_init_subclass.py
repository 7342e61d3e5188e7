# __init_subclass__ runs for each subclass (not the class defining it),
# receives class keyword arguments, and is implicitly a classmethod.
class Base:
    seen = []

    def __init_subclass__(cls, /, tag="none", **kw):
        super().__init_subclass__(**kw)
        cls.tag = tag
        Base.seen.append((cls.__name__, tag))


class A(Base):
    pass


class B(Base, tag="bee"):
    pass


class C(B):
    pass


print(Base.seen, hasattr(Base, "tag"), C.tag)
try:
    class D(Base, colour="red"):
        pass
except TypeError as e:
    print(type(e).__name__, e)
