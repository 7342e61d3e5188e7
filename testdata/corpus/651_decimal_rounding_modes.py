import decimal
from decimal import Decimal

# How each rounding mode treats the awkward values of a price list.
modes = [
    decimal.ROUND_HALF_UP, decimal.ROUND_HALF_EVEN, decimal.ROUND_HALF_DOWN,
    decimal.ROUND_UP, decimal.ROUND_DOWN, decimal.ROUND_CEILING, decimal.ROUND_FLOOR, decimal.ROUND_05UP,
]
values = ["2.675", "2.665", "-2.675", "0.125", "-0.005", "1.0049", "7.5", "8.5"]

print("value".ljust(8) + "".join(m.replace("ROUND_", "").ljust(11) for m in modes))
for v in values:
    d = Decimal(v)
    row = [str(d.quantize(Decimal("0.01"), rounding=m)) for m in modes]
    print(v.ljust(8) + "".join(r.ljust(11) for r in row))

# Whole numbers: round() is banker's rounding, to_integral_value takes a mode.
for v in ["0.5", "1.5", "2.5", "-2.5", "3.49999"]:
    d = Decimal(v)
    print(v, round(d), d.to_integral_value(rounding=decimal.ROUND_HALF_UP), round(d, 1), int(d))

# Formatting rounds with the context's mode (half even by default).
print(f"{Decimal('2.675'):.2f} {Decimal('2.665'):.2f} {Decimal('1234567.005'):,.2f}")
decimal.getcontext().rounding = decimal.ROUND_HALF_UP
print(f"{Decimal('2.675'):.2f} {Decimal('2.665'):.2f} {Decimal('1234567.005'):,.2f}")
print(decimal.getcontext().rounding)
