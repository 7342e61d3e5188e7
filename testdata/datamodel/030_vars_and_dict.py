# vars(obj) is obj.__dict__; the class __dict__ holds the body's names;
# vars() of a value without __dict__ is a TypeError.
class C:
    """doc"""
    a = 1

    def m(self):
        pass


c = C()
c.x = 10
print(vars(c), vars(c) is c.__dict__)
print(sorted(k for k in vars(C) if not k.startswith("__")), C.__dict__["a"], C.__doc__)
c.__dict__["y"] = 20
print(c.y, sorted(vars(c)))
for v in (1, "s", [1]):
    try:
        vars(v)
    except TypeError as e:
        print(type(e).__name__, e)
