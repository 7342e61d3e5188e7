# __int__, __float__, __round__, __abs__, __neg__, __pos__, __invert__.
class N:
    def __init__(self, v):
        self.v = v

    def __int__(self): return int(self.v)
    def __float__(self): return float(self.v)
    def __round__(self, nd=None): return f"round({nd})"
    def __abs__(self): return N(abs(self.v))
    def __neg__(self): return N(-self.v)
    def __pos__(self): return "pos"
    def __invert__(self): return "inv"
    def __repr__(self): return f"N({self.v})"


n = N(-2.7)
print(int(n), float(n), round(n), round(n, 1), abs(n), -n, +n, ~n)
try:
    int(object())
except TypeError as e:
    print(type(e).__name__, e)
try:
    -object()
except TypeError as e:
    print(type(e).__name__, e)
