# Summarize sales from CSV text fetched from a service.
import csv
import io

fetched = """date,region,product,units,price
2024-03-01,north,widget,10,2.50
2024-03-01,south,gadget,3,10.00
2024-03-02,north,gadget,5,10.00
2024-03-02,east,widget,7,2.50
2024-03-03,south,widget,12,2.40
"""

revenue = {}
units_by_product = {}
for row in csv.DictReader(io.StringIO(fetched)):
    amount = int(row["units"]) * float(row["price"])
    revenue[row["region"]] = revenue.get(row["region"], 0.0) + amount
    units_by_product[row["product"]] = units_by_product.get(row["product"], 0) + int(row["units"])

for region in sorted(revenue):
    print(f"{region:<6} {revenue[region]:>8.2f}")
print("units:", units_by_product)
best = max(revenue, key=revenue.get)
print("best region:", best)
