# A property without setter or deleter: CPython 3.11's texts.
class C:
    @property
    def x(self):
        return 1


c = C()
try:
    c.x = 2
except AttributeError as e:
    print(type(e).__name__, e)
try:
    del c.x
except AttributeError as e:
    print(type(e).__name__, e)
print(C.x.fget(c), C.x.fset, C.x.fdel, C.x.__doc__)
p = property(lambda self: 5)
try:
    p.__set__(c, 1)
except AttributeError as e:
    print(type(e).__name__, e)
