import itertools
from operator import itemgetter

rows = [
    ("2024-01", "north", 120), ("2024-01", "south", 80), ("2024-01", "north", 30),
    ("2024-02", "south", 95), ("2024-02", "east", 60), ("2024-03", "north", 150),
    ("2024-03", "east", 40), ("2024-03", "east", 25),
]

print("by month:")
for month, group in itertools.groupby(rows, key=itemgetter(0)):
    group = list(group)
    print(f"  {month}: {sum(map(itemgetter(2), group)):4d} from {len(group)} sales")

print("by region:")
for region, group in itertools.groupby(sorted(rows, key=itemgetter(1)), key=itemgetter(1)):
    amounts = [amount for _, _, amount in group]
    print(f"  {region:<6} total={sum(amounts):4d} best={max(amounts)}")

runs = [(k, len(list(g))) for k, g in itertools.groupby("aaabccddddx")]
print("run lengths:", runs)
months = sorted({m for m, _, _ in rows})
regions = sorted({r for _, r, _ in rows})
totals = {(m, r): 0 for m, r in itertools.product(months, regions)}
for m, r, amt in rows:
    totals[(m, r)] += amt
print("grid:")
for m in months:
    print(" ", m, [totals[(m, r)] for r in regions])
big = list(itertools.filterfalse(lambda r: r[2] < 90, rows))
print("big sales:", big)
print(list(itertools.compress(regions, [1, 0, 1])), list(itertools.starmap(pow, [(2, 3), (3, 2)])))
