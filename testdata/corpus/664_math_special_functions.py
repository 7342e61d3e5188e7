# Special functions in a small probability toolkit: gamma, lgamma, erf,
# cube roots, log1p/expm1 for small rates, and NormalDist arithmetic.
import math
from statistics import NormalDist

def beta_fn(a, b):
    return math.exp(math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))

def poisson_pmf(k, lam):
    return math.exp(k * math.log(lam) - lam - math.lgamma(k + 1))

for n in (0.5, 1.5, 4.5, 10, 10.5, 30.25, 171.5):
    print(f"gamma({n}) = {math.gamma(n)!r}  lgamma = {math.lgamma(n)!r}")
print([math.gamma(x) for x in (-0.5, -1.5, -2.3)], math.lgamma(-2.3))
print(beta_fn(2.5, 3.5), [round(poisson_pmf(k, 3.2), 12) for k in range(6)])

for v in (27, 64, 1000, 2, 0.001, -8, 1e-300):
    print("cbrt", v, math.cbrt(v), round(math.cbrt(v)) ** 3 == v)

for x in (0.1, 0.5, 1.0, 1.5, 2.0, 3.0, -0.7):
    print(f"erf({x}) = {math.erf(x)!r}, erfc = {math.erfc(x)!r}")

rates = [1e-9, 0.0003, 0.05, 0.27817, 1.0531]
print([math.expm1(r) for r in rates])
print([math.log1p(r) for r in rates])
print([math.sinh(r) for r in rates], math.cosh(1.3), math.tanh(0.42))

heights = NormalDist(175, 7.5)
noise = NormalDist(0, 2)
print(heights + noise, heights - noise, (heights - noise).stdev)
print(heights.cdf(190), heights.overlap(NormalDist(168, 6.8)), round(heights.inv_cdf(0.9), 6))

for bad in (lambda: math.gamma(0), lambda: math.lgamma(-3), lambda: math.gamma(172),
            lambda: math.trunc("3.7"), lambda: math.ldexp(1.0, 2.5)):
    try:
        print(bad())
    except (ValueError, OverflowError, TypeError) as e:
        print(type(e).__name__, e)
