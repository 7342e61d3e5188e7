import math

print(math.pi, math.e, math.tau)
print(math.sqrt(16), math.sqrt(2), math.isqrt(17))
print(math.floor(3.7), math.ceil(3.2), math.floor(-3.7), math.ceil(-3.2), math.trunc(-3.7))
print(math.fabs(-2), math.pow(2, 10), math.exp(1))
print(math.log(math.e), math.log(100, 10), math.log10(1000), math.log2(1024))
print(math.factorial(10), math.gcd(48, 18), math.lcm(4, 6))
print(math.hypot(3, 4), math.dist((0, 0), (6, 8)))
print(round(math.sin(math.pi / 6), 10), round(math.cos(0), 3), math.degrees(math.pi), math.radians(180))
print(math.inf > 10 ** 300, -math.inf, math.isinf(math.inf), math.isnan(math.nan))


def circle_area(r: float) -> float:
    return math.pi * r ** 2


print(f"{circle_area(2):.4f} {circle_area(0.5):.4f}")
print(math.fsum([0.1] * 10), sum([0.1] * 10))
