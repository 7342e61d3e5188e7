from fractions import Fraction
from decimal import Decimal
import math

# Exact arithmetic where floats drift.
print(sum([0.1] * 10), sum([Fraction(1, 10)] * 10))
x = Fraction(1, 3)
print(x + Fraction(1, 6), x - 1, 2 * x, x / 4, x ** 2, x ** -1, -x, abs(-x))
print(x + 0.5, type(x + 0.5).__name__, x * 3 == 1, x < 0.34, x > Fraction(33, 100))
print(Fraction("0.125"), Fraction("-7/21"), Fraction(0.75), Fraction(Decimal("1.2")), Fraction(6, -4))
print(Fraction(math.pi).limit_denominator(100), Fraction(math.pi).limit_denominator(1000))
print(Fraction(1, 3).limit_denominator(2), Fraction(0.1).limit_denominator())
print(int(Fraction(7, 2)), round(Fraction(7, 2)), round(Fraction(5, 2)), round(Fraction(22, 7), 3))
print(math.floor(Fraction(-7, 2)), math.ceil(Fraction(-7, 2)), float(Fraction(1, 8)))
print(sorted([Fraction(2, 3), 0.5, 1, Fraction(1, 4), Decimal("0.7")]))
print(hash(Fraction(1, 2)) == hash(0.5), Fraction(4, 2) == 2, {Fraction(1, 2), Fraction(2, 4)})

# Egyptian fractions by the greedy method.
def egyptian(q):
    parts = []
    while q.numerator != 0:
        d = -(-q.denominator // q.numerator)
        parts.append(Fraction(1, d))
        q -= Fraction(1, d)
    return parts

for q in [Fraction(4, 13), Fraction(5, 6), Fraction(7, 15)]:
    print(q, "=", " + ".join(str(p) for p in egyptian(q)))

# Harmonic numbers stay exact.
h = sum(Fraction(1, n) for n in range(1, 21))
print(h, f"{float(h):.6f}")
try:
    Fraction(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    Fraction("one half")
except ValueError as e:
    print("ValueError:", e)
