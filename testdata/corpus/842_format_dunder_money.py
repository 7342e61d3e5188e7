"""A Money class with __format__, __str__ and __repr__ used in f-strings and format()."""
from decimal import Decimal


class Money:
    def __init__(self, amount, currency="EUR"):
        self.amount = Decimal(str(amount))
        self.currency = currency

    def __format__(self, spec):
        if spec == "short":
            return f"{self.amount:.0f}{self.currency[0]}"
        if spec:
            return f"{format(self.amount, spec)} {self.currency}"
        return str(self)

    def __str__(self):
        return f"{self.amount:.2f} {self.currency}"

    def __repr__(self):
        return f"Money({str(self.amount)!r}, {self.currency!r})"

    def __add__(self, other):
        return Money(self.amount + other.amount, self.currency)


prices = [Money("3.5"), Money(12), Money("0.99", "USD")]
for p in prices:
    print(f"[{p}] [{p:short}] [{p:>10.3f}] {p!r} {p!s}")
print(prices)
print(str(prices[0] + prices[1]), format(prices[2], ".1f"), "{:short}".format(prices[1]))
print("{0!r:>30}|".format(prices[0]))
