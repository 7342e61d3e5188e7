TAX_RATE = 0.0825

cart = [
    ("Notebook", 3, 4.99),
    ("Pen (blue)", 10, 0.89),
    ("Backpack", 1, 39.95),
    ("Calculator", 2, 17.5),
]

print(f"{'Item':<14}{'Qty':>4}{'Unit':>9}{'Total':>10}")
print("-" * 37)
subtotal = 0.0
for name, qty, unit in cart:
    line_total = qty * unit
    subtotal += line_total
    print(f"{name:<14}{qty:>4}{unit:>9.2f}{line_total:>10.2f}")
print("-" * 37)

tax = round(subtotal * TAX_RATE, 2)
total = subtotal + tax
print(f"{'Subtotal':<27}{subtotal:>10.2f}")
print(f"{'Tax (' + format(TAX_RATE, '.2%') + ')':<27}{tax:>10.2f}")
print(f"{'TOTAL':<27}{total:>10.2f}")
print("Paid with %d items in %d lines" % (sum(q for _, q, _ in cart), len(cart)))
