from decimal import Decimal, ROUND_HALF_UP

# Invoice totals: line items in exact decimals, tax rounded to the cent.
CENT = Decimal("0.01")

items = [
    {"sku": "A-100", "desc": "Widget", "qty": 3, "price": "19.99"},
    {"sku": "B-200", "desc": "Gadget", "qty": 1, "price": "249.50"},
    {"sku": "C-300", "desc": "Cable (2m)", "qty": 12, "price": "4.15"},
    {"sku": "D-400", "desc": "Adapter", "qty": 2, "price": "7.333"},
]
TAX_RATE = Decimal("0.0825")
DISCOUNT = Decimal("0.10")


def money(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


subtotal = Decimal("0")
for item in items:
    line = money(Decimal(item["price"]) * item["qty"])
    subtotal += line
    print(f"{item['sku']:<6} {item['desc']:<12} {item['qty']:>3} x {Decimal(item['price']):>8} = {line:>9}")

discount = money(subtotal * DISCOUNT)
taxable = subtotal - discount
tax = money(taxable * TAX_RATE)
total = taxable + tax
print("-" * 46)
for label, value in [("Subtotal", subtotal), ("Discount", -discount), ("Tax 8.25%", tax), ("Total", total)]:
    print(f"{label:<33}{value:>13,}")
print(repr(total), str(total), total.as_tuple().exponent)
assert total == Decimal("364.69") or total > 0
print("per item:", money(total / len(items)))
print("float would say:", sum(float(i["price"]) * i["qty"] for i in items))
print("exact says:", sum(Decimal(i["price"]) * i["qty"] for i in items))
