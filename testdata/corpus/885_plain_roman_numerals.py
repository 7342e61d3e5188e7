"""Roman numerals both ways, with an lru_cache on the parser and round-trip checks."""
from functools import lru_cache

VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    if not 0 < n < 4000:
        raise ValueError(f"{n} out of range")
    out = []
    for v, s in VALUES:
        q, n = divmod(n, v)
        out.append(s * q)
    return "".join(out)


@lru_cache(maxsize=128)
def from_roman(s):
    single = {s: v for v, s in VALUES if len(s) == 1}
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = single[a]
        total += -v if b != " " and single[b] > v else v
    return total


for n in [1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999]:
    r = to_roman(n)
    print(n, r, from_roman(r) == n)
print(from_roman("MCMXCIV"), from_roman.cache_info().misses)
try:
    to_roman(0)
except ValueError as e:
    print("ValueError:", e)
