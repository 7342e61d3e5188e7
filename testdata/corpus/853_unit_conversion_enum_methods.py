"""Units as an Enum whose values are tuples, with methods and a conversion table."""
from enum import Enum


class Length(Enum):
    MM = ("millimetre", 0.001)
    CM = ("centimetre", 0.01)
    M = ("metre", 1.0)
    KM = ("kilometre", 1000.0)
    IN = ("inch", 0.0254)

    def __init__(self, label, factor):
        self.label = label
        self.factor = factor

    def to(self, other, value):
        return value * self.factor / other.factor

    @classmethod
    def parse(cls, text):
        num, unit = text.split()
        return float(num), cls[unit.upper()]


for text in ["12 in", "3.5 km", "250 mm"]:
    value, unit = Length.parse(text)
    print(f"{text:>8} = {unit.to(Length.M, value):.4g} m ({unit.label})")
print(Length.KM.value, Length.CM.factor, Length(("metre", 1.0)))
print([u.name for u in sorted(Length, key=lambda u: u.factor)])
print(Length.IN.to(Length.CM, 1), Length.M is Length["M"])
