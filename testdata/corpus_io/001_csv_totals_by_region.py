import csv
from collections import defaultdict

totals = defaultdict(float)
with open("data/sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["region"]] += int(row["units"]) * float(row["price"])
for region, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{region:<6} {total:8.2f}")
