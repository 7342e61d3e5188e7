# __hash__ = None makes a class unhashable explicitly; a subclass can restore
# hashing by defining __hash__; hash() must return an int.
class Frozen:
    __hash__ = None


class Back(Frozen):
    def __hash__(self):
        return 42


class Bad:
    def __hash__(self):
        return "x"


print(hash(Back()), len({Back(), Back()}))
for obj in (Frozen(), Bad()):
    try:
        hash(obj)
    except TypeError as e:
        print(type(e).__name__, e)
print(isinstance(Back(), object), hash(7) == 7, hash(True) == 1)
