# a + b tries a.__add__(b); on NotImplemented it tries b.__radd__(a); if both
# give NotImplemented, a TypeError names both types.
class A:
    def __add__(self, other):
        print("A.__add__")
        return NotImplemented


class B:
    def __radd__(self, other):
        print("B.__radd__")
        return "B handled it"


class C:
    pass


print(A() + B())
try:
    A() + C()
except TypeError as e:
    print(type(e).__name__, e)
print(1 + B())
