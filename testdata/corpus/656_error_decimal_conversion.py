from decimal import Decimal

# An unparsable amount, not caught.
rows = ["12.50", "7.25", "n/a"]
total = Decimal(0)
for r in rows:
    total += Decimal(r)
    print("running total", total)
