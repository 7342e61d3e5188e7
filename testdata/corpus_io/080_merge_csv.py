import csv

rows = list(csv.DictReader(open("data/sales.csv")))
with open("reports/extra.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["date", "region", "product", "units", "price"])
    w.writerow(["2026-01-10", "north", "gizmo", "1", "99.90"])
rows += list(csv.DictReader(open("reports/extra.csv")))
by_product = {}
for r in rows:
    by_product[r["product"]] = by_product.get(r["product"], 0) + int(r["units"])
print(len(rows), by_product)
