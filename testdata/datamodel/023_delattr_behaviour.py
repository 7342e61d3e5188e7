# del obj.attr removes instance attributes; a class attribute cannot be
# deleted through an instance; __delattr__ sees every del.
class C:
    shared = 1


c = C()
c.own = 2
del c.own
print(hasattr(c, "own"))
try:
    del c.shared
except AttributeError as e:
    print(type(e).__name__, e)
delattr(C, "shared")
print(hasattr(C, "shared"))


class Guard:
    def __delattr__(self, name):
        print("del", name)


g = Guard()
del g.anything
