import statistics
from decimal import Decimal, ROUND_HALF_UP
from fractions import Fraction
from collections import defaultdict

# Monthly spend report: exact sums per category, averages kept as Decimal.
rows = [
    ("2024-01", "travel", "412.30"), ("2024-01", "meals", "88.15"), ("2024-01", "meals", "23.40"),
    ("2024-02", "travel", "129.99"), ("2024-02", "software", "49.00"), ("2024-02", "meals", "61.25"),
    ("2024-03", "travel", "980.00"), ("2024-03", "software", "49.00"), ("2024-03", "meals", "12.05"),
]
by_cat = defaultdict(list)
by_month = defaultdict(Decimal)
for month, cat, amount in rows:
    value = Decimal(amount)
    by_cat[cat].append(value)
    by_month[month] += value

CENT = Decimal("0.01")
for cat, values in sorted(by_cat.items()):
    mean = statistics.mean(values)
    print(f"{cat:<9} n={len(values)} total={sum(values):>8} mean={mean.quantize(CENT, ROUND_HALF_UP):>8} "
          f"median={statistics.median(values)} max={max(values)}")

months = sorted(by_month)
print({m: str(by_month[m]) for m in months})
print("spread:", statistics.pstdev([by_month[m] for m in months]).quantize(CENT))
print("variance:", statistics.variance(by_cat["meals"]))
growth = [(by_month[b] - by_month[a]) / by_month[a] for a, b in zip(months, months[1:])]
print(["{:+.1%}".format(g) for g in growth])
share = {cat: Fraction(sum(v)) / Fraction(sum(by_month.values())) for cat, v in by_cat.items()}
print({cat: f"{float(s):.3f}" for cat, s in sorted(share.items())}, sum(share.values()))
print(statistics.mean([Fraction(1, 3), Fraction(1, 6), 1]))
