orders = [
    {"id": 1001, "customer": "Müller GmbH", "total": 1520.5, "items": 3},
    {"id": 1002, "customer": "O'Brien & Sons", "total": 89.99, "items": 1},
    {"id": 1003, "customer": "Tanaka 田中", "total": 12000.0, "items": 12},
]

grand_total = sum(o["total"] for o in orders)
item_count = sum(o["items"] for o in orders)

report = f"""
Order report
============
Orders:      {len(orders)}
Items:       {item_count}
Grand total: {grand_total:,.2f}
Average:     {grand_total / len(orders):,.2f}
"""
print(report.strip())

for o in orders:
    line = f'''#{o["id"]} {o['customer']:<16} {o["items"]:>3} items {o["total"]:>10,.2f}'''
    print(line)

summary = (
    f"Largest order: #{max(orders, key=lambda o: o['total'])['id']}, "
    f"smallest: #{min(orders, key=lambda o: o['total'])['id']}"
)
print(summary)
