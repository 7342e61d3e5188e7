"""A minimal Rational class versus fractions.Fraction: arithmetic, comparison, hashing."""
from fractions import Fraction
from math import gcd
from functools import total_ordering


@total_ordering
class Rational:
    def __init__(self, n, d=1):
        if d == 0:
            raise ZeroDivisionError("denominator is zero")
        g = gcd(n, d) * (1 if d > 0 else -1)
        self.n, self.d = n // g, d // g

    def __add__(self, o):
        o = o if isinstance(o, Rational) else Rational(o)
        return Rational(self.n * o.d + o.n * self.d, self.d * o.d)

    __radd__ = __add__

    def __mul__(self, o):
        o = o if isinstance(o, Rational) else Rational(o)
        return Rational(self.n * o.n, self.d * o.d)

    __rmul__ = __mul__

    def __truediv__(self, o):
        return self * Rational(o.d, o.n)

    def __eq__(self, o):
        o = o if isinstance(o, Rational) else Rational(o)
        return (self.n, self.d) == (o.n, o.d)

    def __lt__(self, o):
        return self.n * o.d < o.n * self.d

    def __hash__(self):
        return hash(Fraction(self.n, self.d))

    def __repr__(self):
        return f"{self.n}/{self.d}"


a, b = Rational(1, 3), Rational(2, -6)
print(a, b, a + b, a * 3, 2 + a, a / Rational(2, 3), a + b == 0)
print(sorted([Rational(3, 4), Rational(1, 2), Rational(2, 3)]), Rational(1, 2) >= Rational(2, 4))
print(hash(Rational(1, 2)) == hash(Fraction(1, 2)), len({Rational(1, 2), Rational(2, 4)}))
print(sum([Rational(1, n) for n in range(1, 5)]), sum(Fraction(1, n) for n in range(1, 5)))
try:
    Rational(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
