from decimal import Decimal, getcontext, Context, setcontext, Inexact, ROUND_DOWN

# Precision is significant digits, set on the run's context.
third = Decimal(1) / Decimal(3)
print(third, len(str(third)) - 2)
getcontext().prec = 6
print(Decimal(1) / Decimal(7), Decimal(2).sqrt(), Decimal("123456789") + 0)
print(Decimal("1.23456789"), +Decimal("1.23456789"))
print("Inexact flagged:", getcontext().flags[Inexact])
getcontext().clear_flags()
print("after clear:", getcontext().flags[Inexact])

getcontext().prec = 50
print(Decimal(2).sqrt())
print(Decimal(1).exp())
print(Decimal(10).ln())

setcontext(Context(prec=10, rounding=ROUND_DOWN))
print(Decimal(2) / 3, getcontext().prec, getcontext().rounding)

ctx = Context(prec=4)
print(ctx.divide(Decimal(22), Decimal(7)), ctx.sqrt(Decimal(10)), ctx.create_decimal("3.14159"))
print(Decimal(22) / 7)
print(Decimal("3.14159").quantize(Decimal("0.001"), context=ctx))

# Compound interest, month by month.
setcontext(Context(prec=28))
balance = Decimal("1000.00")
rate = Decimal("0.05") / 12
for month in range(1, 13):
    balance += (balance * rate).quantize(Decimal("0.01"))
    if month % 4 == 0:
        print(f"month {month:2}: {balance}")
