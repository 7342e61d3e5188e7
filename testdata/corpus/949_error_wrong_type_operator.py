"""A Money class that only adds Money: adding a float falls through both operands."""


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        if isinstance(other, Money):
            return Money(self.cents + other.cents)
        return NotImplemented

    def __repr__(self):
        return f"Money({self.cents})"


wallet = Money(150) + Money(275)
print(wallet)
print(sum([Money(1), Money(2)], Money(0)))
print(wallet + 1.5)
