# x += y uses __iadd__ if defined (mutating, returning self), else __add__
# (a new object); the name is rebound to __iadd__'s return value.
class Acc:
    def __init__(self, v):
        self.v = v

    def __iadd__(self, o):
        self.v += o
        return self


class Add:
    def __init__(self, v):
        self.v = v

    def __add__(self, o):
        return Add(self.v + o)


a = Acc(1)
alias = a
a += 5
print(a.v, alias is a)
b = Add(1)
alias = b
b += 5
print(b.v, alias.v, alias is b)


class ReturnsNone:
    def __iadd__(self, o):
        pass


r = ReturnsNone()
r += 1
print(r)
