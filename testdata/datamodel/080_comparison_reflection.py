# a < b falls back to b.__gt__(a) when a has no __lt__ (or returns
# NotImplemented); with neither it is a TypeError.
class OnlyGt:
    def __init__(self, v):
        self.v = v

    def __gt__(self, other):
        print("__gt__ called")
        return self.v > (other.v if isinstance(other, OnlyGt) else other)


print(5 < OnlyGt(10), 0 < OnlyGt(1))
try:
    OnlyGt(1) < 0  # int has no __gt__ taking OnlyGt: no fallback left
except TypeError as e:
    print(type(e).__name__, e)
print(sorted([OnlyGt(3), OnlyGt(1)], key=lambda o: o.v)[0].v)
try:
    object() < object()
except TypeError as e:
    print(type(e).__name__, e)
try:
    OnlyGt(1) <= OnlyGt(2)
except TypeError as e:
    print(type(e).__name__, e)
