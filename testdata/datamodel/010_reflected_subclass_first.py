# When the right operand's type is a subclass of the left's and overrides the
# reflected method, the reflected method is tried first.
class Num:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return f"Num.__add__({type(other).__name__})"

    def __radd__(self, other):
        return f"Num.__radd__({type(other).__name__})"


class Sub(Num):
    def __radd__(self, other):
        return f"Sub.__radd__({type(other).__name__})"


class Plain(Num):
    pass


print(Num(1) + Sub(2))
print(Num(1) + Plain(2))
print(Sub(1) + Num(2))
