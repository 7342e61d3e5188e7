# truth: __bool__ if defined, else __len__ != 0, else True.
class L:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


class BoolAndLen(L):
    def __bool__(self):
        return True


class Neither:
    pass


print(bool(L(0)), bool(L(3)), bool(BoolAndLen(0)), bool(Neither()))
print(not L(0), L(0) or "fallback", [x.n for x in [L(0), L(2)] if x])
