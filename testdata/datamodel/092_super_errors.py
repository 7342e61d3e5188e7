# super() errors: no arguments outside a method, and a second argument that
# is not an instance or subtype.
class A:
    def f(self):
        return "A.f"


class B(A):
    pass


def outside():
    return super()


try:
    outside()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    super(B, 1)
except TypeError as e:
    print(type(e).__name__, e)
print(super(B, B()).f(), super(B, B).f(B()))
try:
    super(A, A()).f()
except AttributeError as e:
    print(type(e).__name__, e)
