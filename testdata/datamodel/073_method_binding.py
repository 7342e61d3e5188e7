# C.f is a plain function; obj.f is a bound method with __self__ and __func__;
# each access makes a new bound method that compares equal.
class C:
    def f(self, x):
        return (type(self).__name__, x)


c = C()
m = c.f
print(type(C.f).__name__, type(m).__name__, m.__self__ is c, m.__func__ is C.f)
print(m(1), C.f(c, 2), c.f == c.f, c.f is c.f, m.__name__, m.__qualname__)
g = C.f
print(g(c, 3), C.__dict__["f"] is C.f)
