"""A Complex number class: operators, reflected operators, abs, equality with numbers, hashing."""
import math


class Complex:
    def __init__(self, re, im=0.0):
        self.re, self.im = re, im

    def __add__(self, o):
        o = o if isinstance(o, Complex) else Complex(o)
        return Complex(self.re + o.re, self.im + o.im)

    __radd__ = __add__

    def __mul__(self, o):
        o = o if isinstance(o, Complex) else Complex(o)
        return Complex(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    __rmul__ = __mul__

    def __abs__(self):
        return math.hypot(self.re, self.im)

    def __eq__(self, o):
        if isinstance(o, (int, float)):
            o = Complex(o)
        return isinstance(o, Complex) and (self.re, self.im) == (o.re, o.im)

    def __hash__(self):
        return hash(self.re) if self.im == 0 else hash((self.re, self.im))

    def __repr__(self):
        return f"({self.re:g}{self.im:+g}j)"


a, b = Complex(1, 2), Complex(3, -1)
print(a + b, a * b, 2 * a, a + 1, abs(Complex(3, 4)))
print(a * b == b * a, abs(a * b) == abs(a) * abs(b), round(abs(a * b), 4))
print(Complex(2) == 2, Complex(2, 1) == 2, hash(Complex(2)) == hash(2), len({Complex(1, 0), Complex(1)}))
print(sum([a, b, Complex(0, 1)]), sum([a, b], Complex(10)))
