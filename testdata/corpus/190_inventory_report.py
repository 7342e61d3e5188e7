inventory = [
    {"sku": "A-100", "name": "bolts", "qty": 1200, "reorder_at": 500, "unit_cost": 0.05},
    {"sku": "A-101", "name": "nuts", "qty": 300, "reorder_at": 500, "unit_cost": 0.04},
    {"sku": "B-200", "name": "hinges", "qty": 45, "reorder_at": 50, "unit_cost": 2.35},
    {"sku": "C-300", "name": "handles", "qty": 0, "reorder_at": 20, "unit_cost": 4.10},
    {"sku": "C-301", "name": "knobs", "qty": 75, "reorder_at": 20, "unit_cost": 1.99},
]

total_value = 0.0
needs_reorder = []
for item in inventory:
    value = item["qty"] * item["unit_cost"]
    total_value += value
    status = "OUT" if item["qty"] == 0 else "LOW" if item["qty"] < item["reorder_at"] else "ok"
    if status != "ok":
        needs_reorder.append(item["sku"])
    print(f"{item['sku']} {item['name']:<8} {item['qty']:>5} {value:>8.2f} {status}")

print(f"Total inventory value: ${total_value:,.2f}")
print("Reorder:", ", ".join(needs_reorder) or "nothing")
by_prefix = {}
for item in inventory:
    prefix = item["sku"].split("-")[0]
    by_prefix[prefix] = by_prefix.get(prefix, 0) + item["qty"]
print(by_prefix)
