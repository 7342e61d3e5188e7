"""An inventory of namedtuple records: compared with plain tuples, repeated, documented."""
from collections import namedtuple, defaultdict

Item = namedtuple("Item", "sku name qty price", defaults=[0, 0.0])
print(Item.__doc__, Item._field_defaults)

rows = [("A1", "bolt", 120, 0.05), ("B2", "nut", 300, 0.02), ("C3", "gear"), ("A1", "bolt", 120, 0.05)]
items = [Item._make(r) if len(r) == 4 else Item(*r) for r in rows]
for it in items:
    print(f"{it.sku:<3} {it.name:<5} {it.qty:>4} {it.price:>6.2f}")

# A record equals the plain tuple with the same values.
expected = ("B2", "nut", 300, 0.02)
print(items[1] == expected, expected == items[1], items[0] != items[3])
print(items[2] == ("C3", "gear", 0, 0.0))

by_sku = defaultdict(list)
for it in items:
    by_sku[it.sku].append(it)
dupes = {sku: len(v) for sku, v in by_sku.items() if len(v) > 1}
print("duplicates:", dupes)

# A record repeats and concatenates as a tuple does.
header = Item("sku", "name", "qty", "price")
print(header * 2)
print(2 * Item("X", "y"))
print(items[0] + ("extra",))

value = sum(it.qty * it.price for it in items)
print(f"total value: {value:.2f}")
restocked = [it._replace(qty=it.qty + 10) for it in items if it.qty < 200]
print(restocked)
print([it._asdict()["name"] for it in sorted(items, key=lambda it: (-it.qty, it.sku))])
