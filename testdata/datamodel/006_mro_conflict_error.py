# An impossible order is a TypeError at class creation; CPython 3.11's message
# contains a newline.
class X: pass
class Y: pass
class A(X, Y): pass
class B(Y, X): pass


try:
    class C(A, B): pass
except TypeError as e:
    print(type(e).__name__, repr(str(e)))
try:
    class D(X, X): pass
except TypeError as e:
    print(type(e).__name__, e)
try:
    class E(object, X): pass
except TypeError as e:
    print(type(e).__name__, repr(str(e)))
