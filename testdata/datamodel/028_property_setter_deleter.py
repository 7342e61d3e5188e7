# .setter and .deleter return new property objects; the original keeps
# working as a read-only property; the getter's docstring becomes the doc.
class C:
    def __init__(self):
        self._v = 0

    @property
    def v(self):
        "the value"
        return self._v

    ro = v

    @v.setter
    def v(self, value):
        print("setting", value)
        self._v = value

    @v.deleter
    def v(self):
        print("deleting")
        self._v = None


c = C()
c.v = 5
print(c.v, c.ro, C.v.__doc__, C.ro is C.v)
del c.v
print(c.v)
try:
    c.ro = 1
except AttributeError as e:
    print(type(e).__name__, e)
