# A member whose value is a tuple is passed unpacked to __init__.
from enum import Enum


class Coin(Enum):
    PENNY = (1, "copper")
    DIME = (10, "silver")

    def __init__(self, cents, metal):
        self.cents = cents
        self.metal = metal


print(Coin.DIME.value, Coin.DIME.cents, Coin.PENNY.metal, Coin((10, "silver")))
print(sum(c.cents for c in Coin))
