import heapq
from operator import itemgetter

sales = [
    {"sku": "A-100", "name": "Widget", "units": 340, "revenue": 6800.0},
    {"sku": "B-220", "name": "Gadget", "units": 120, "revenue": 9600.0},
    {"sku": "C-310", "name": "Doohickey", "units": 560, "revenue": 2800.0},
    {"sku": "D-400", "name": "Gizmo", "units": 90, "revenue": 13500.0},
    {"sku": "E-510", "name": "Thingamajig", "units": 340, "revenue": 5100.0},
    {"sku": "F-600", "name": "Whatsit", "units": 15, "revenue": 450.0},
]

print("top 3 by revenue:")
for row in heapq.nlargest(3, sales, key=itemgetter("revenue")):
    print(f"  {row['sku']} {row['name']:<12} {row['revenue']:>9,.2f}")

print("bottom 2 by units:", [r["name"] for r in heapq.nsmallest(2, sales, key=itemgetter("units"))])
print("ties keep order:", [r["sku"] for r in heapq.nlargest(2, sales, key=itemgetter("units"))])

by_units_then_name = sorted(sales, key=itemgetter("units", "name"), reverse=True)
print([(r["units"], r["name"]) for r in by_units_then_name])

prices = [r["revenue"] / r["units"] for r in sales]
print("dearest:", heapq.nlargest(2, prices), "cheapest:", heapq.nsmallest(1, prices))
print(heapq.nlargest(10, [3, 1, 2]), heapq.nsmallest(0, [3, 1]))
get = itemgetter(1, 0)
print(sorted([("x", 2), ("y", 1), ("z", 2)], key=get))
