from fractions import Fraction
import math

# Ratios of a recipe, scaled exactly, then shown as mixed numbers.
recipe = {"flour": "2 1/4", "sugar": "3/4", "butter": "1/2", "milk": "1 1/3", "salt": "1/8"}


def parse_qty(text):
    total = Fraction(0)
    for part in text.split():
        total += Fraction(part)
    return total


def mixed(q):
    whole, rest = divmod(q, 1)
    if rest == 0:
        return str(whole)
    return f"{whole} {rest}" if whole else str(rest)


for scale in [Fraction(1, 2), Fraction(3, 2), 3]:
    print(f"x{scale}:", ", ".join(f"{k} {mixed(parse_qty(v) * scale)}" for k, v in recipe.items()))

total = sum(parse_qty(v) for v in recipe.values())
print("total cups:", total, float(total), repr(total))
print("numerator/denominator:", total.numerator, total.denominator)

# Screen sizes: reduce width:height to a ratio.
for w, h in [(1920, 1080), (2560, 1600), (1366, 768), (3440, 1440)]:
    r = Fraction(w, h)
    print(f"{w}x{h} -> {r.numerator}:{r.denominator}  ~{r.limit_denominator(20)}  gcd={math.gcd(w, h)}")

# Probability: two dice summing to each total.
counts = {}
for a in range(1, 7):
    for b in range(1, 7):
        counts[a + b] = counts.get(a + b, 0) + Fraction(1, 36)
print({k: str(v) for k, v in sorted(counts.items())})
print(sum(counts.values()) == 1, max(counts, key=counts.get))
