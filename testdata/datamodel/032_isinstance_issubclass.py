# isinstance/issubclass with tuples (nested too), bool as int, and the
# TypeErrors of bad second and first arguments.
class A: pass
class B(A): pass


b = B()
print(isinstance(b, A), isinstance(b, (int, (str, A))), isinstance(True, int), isinstance(1, bool))
print(issubclass(B, A), issubclass(B, (int, A)), issubclass(A, B), issubclass(bool, int), issubclass(A, object))
for args in [(b, 1), (b, "A")]:
    try:
        isinstance(*args)
    except TypeError as e:
        print(type(e).__name__, e)
try:
    issubclass(b, A)
except TypeError as e:
    print(type(e).__name__, e)
