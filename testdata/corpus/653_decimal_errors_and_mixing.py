from decimal import Decimal, InvalidOperation, DivisionByZero, getcontext
import decimal
import json

# What an agent meets when parsing user amounts.
def parse_amount(text):
    try:
        return Decimal(text.replace(",", "").replace("$", "").strip())
    except InvalidOperation as e:
        print(f"  bad amount {text!r}: {type(e).__name__}")
        return None

amounts = [parse_amount(t) for t in ["$1,234.50", " 12 ", "abc", "1e3", "--5", "0.10", "NaN"]]
print(amounts)
good = [a for a in amounts if a is not None and a.is_finite()]
print(sum(good), max(good), min(good), sorted(good, reverse=True))

try:
    Decimal("1.10") + 0.5
except TypeError as e:
    print("TypeError:", e)
try:
    Decimal(10) / 0
except DivisionByZero as e:
    print("DivisionByZero:", e, isinstance(e, ZeroDivisionError))
try:
    Decimal(10) / 0
except ZeroDivisionError:
    print("caught as ZeroDivisionError too")
try:
    Decimal(0) / 0
except InvalidOperation as e:
    print("InvalidOperation:", e)
try:
    Decimal(-4).sqrt()
except decimal.DecimalException as e:
    print("DecimalException:", type(e).__name__)

print(Decimal("1.0") == 1, Decimal("0.1") == 0.1, Decimal("0.5") == 0.5, 2 > Decimal("1.99"))
print(hash(Decimal(7)) == hash(7), Decimal(7) in {7, 8}, Decimal("2.50") in [2.5])
print(Decimal(0.1), Decimal.from_float(0.25), float(Decimal("0.1")) == 0.1)
try:
    json.dumps({"total": Decimal("9.99")})
except TypeError as e:
    print("TypeError:", e)
print(json.dumps({"total": Decimal("9.99")}, default=str))
print(json.dumps({"total": float(Decimal("9.99"))}))
print(Decimal(10) // 3, Decimal(-10) // 3, Decimal(-10) % 3, -10 // 3, -10 % 3)
