# == with NotImplemented from both sides falls back to identity; != is the
# negation of == when only __eq__ is defined.
class A:
    def __eq__(self, other):
        return NotImplemented


a = A()
print(a == a, a == A(), a != A(), a != a)


class B:
    def __eq__(self, other):
        return isinstance(other, B)


print(B() == B(), B() != B(), B() == 1, 1 == B(), B() != 1)
print([B()].count(B()), B() in [1, B()], [1, 2].index(2))
