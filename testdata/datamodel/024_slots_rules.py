# __slots__ instances have no __dict__; assigning an unknown name is an
# AttributeError; an unset slot reads as AttributeError; a subclass without
# __slots__ gets a __dict__ again.
class P:
    __slots__ = ("x", "y")


p = P()
p.x = 1
print(p.x, hasattr(p, "__dict__"))
try:
    p.y
except AttributeError as e:
    print(type(e).__name__, e)
try:
    p.z = 3
except AttributeError as e:
    print(type(e).__name__, e)


class Q(P):
    pass


q = Q()
q.z = 3
print(vars(q))
try:
    class Bad:
        __slots__ = ("x",)
        x = 1
except ValueError as e:
    print(type(e).__name__, e)
