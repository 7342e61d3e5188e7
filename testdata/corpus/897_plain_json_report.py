"""Aggregating JSON order records into a report with dict comprehensions and a formatter class."""
import json

ORDERS = json.loads("""[
 {"id": 1, "customer": "ana", "items": [{"sku": "a", "qty": 2, "price": 3.5}]},
 {"id": 2, "customer": "bo", "items": [{"sku": "b", "qty": 1, "price": 10.0}, {"sku": "a", "qty": 1, "price": 3.5}]},
 {"id": 3, "customer": "ana", "items": []},
 {"id": 4, "customer": "cy", "items": [{"sku": "c", "qty": 5, "price": 1.25}]}
]""")


class Table:
    def __init__(self, *headers):
        self.headers, self.rows = headers, []

    def add(self, *row):
        self.rows.append([str(c) for c in row])

    def __str__(self):
        widths = [max(len(str(x)) for x in col) for col in zip(self.headers, *self.rows)]
        fmt = " | ".join(f"{{:<{w}}}" for w in widths)
        lines = [fmt.format(*self.headers), "-+-".join("-" * w for w in widths)]
        return "\n".join(lines + [fmt.format(*r) for r in self.rows])


totals = {}
for o in ORDERS:
    totals[o["customer"]] = totals.get(o["customer"], 0) + sum(i["qty"] * i["price"] for i in o["items"])
sku_qty = {}
for o in ORDERS:
    for i in o["items"]:
        sku_qty[i["sku"]] = sku_qty.get(i["sku"], 0) + i["qty"]
t = Table("customer", "orders", "total")
for c in sorted(totals, key=totals.get, reverse=True):
    t.add(c, sum(o["customer"] == c for o in ORDERS), f"{totals[c]:.2f}")
print(t)
print(json.dumps(sku_qty, sort_keys=True), [o["id"] for o in ORDERS if not o["items"]])
