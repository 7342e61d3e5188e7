# super() without arguments, super(C, self), and super() in a classmethod.
class A:
    def who(self):
        return "A"

    @classmethod
    def make(cls):
        return f"A.make({cls.__name__})"


class B(A):
    def who(self):
        return "B>" + super().who()

    def explicit(self):
        return "B>" + super(B, self).who()

    @classmethod
    def make(cls):
        return "B>" + super().make()


b = B()
print(b.who(), b.explicit(), B.make(), A.who(b))
print(super(B, b).who(), type(super(B, b)).__name__)
