"""Building class hierarchies with type() at run time; an impossible order is a TypeError."""


class Base:
    def who(self):
        return "base"


class Left(Base):
    def who(self):
        return "left/" + super().who()


class Right(Base):
    def who(self):
        return "right/" + super().who()


class Both(Left, Right):
    pass


print(Both().who(), [c.__name__ for c in Both.__mro__])
for bases in [(Left, Right), (Right, Left), (Base, Left), (Left, Base)]:
    names = ", ".join(b.__name__ for b in bases)
    try:
        cls = type("Dyn", bases, {"tag": names})
        print(names, "->", [c.__name__ for c in cls.mro()], cls().who(), cls.tag)
    except TypeError as e:
        # CPython's message holds a newline.
        print(names, "->", repr(str(e)))
