"""Rounding money with decimal.localcontext inside with-blocks and a Money dataclass."""
from dataclasses import dataclass
from decimal import Decimal, localcontext, ROUND_HALF_UP, ROUND_DOWN


@dataclass(frozen=True)
class Money:
    amount: Decimal

    def split(self, n):
        with localcontext() as ctx:
            ctx.rounding = ROUND_DOWN
            share = (self.amount / n).quantize(Decimal("0.01"))
        rest = self.amount - share * n
        return [Money(share + (Decimal("0.01") if i < rest * 100 else 0)) for i in range(n)]

    def __str__(self):
        return f"${self.amount}"


bill = Money(Decimal("100.00"))
parts = bill.split(3)
print([str(p) for p in parts], sum(p.amount for p in parts))
with localcontext() as ctx:
    ctx.prec = 4
    print(Decimal(1) / Decimal(7), ctx.prec)
print(Decimal(1) / Decimal(7))
with localcontext() as ctx:
    ctx.rounding = ROUND_HALF_UP
    print([str(Decimal(x).quantize(Decimal("1"))) for x in ("0.5", "1.5", "2.5")])
print([str(Decimal(x).quantize(Decimal("1"))) for x in ("0.5", "1.5", "2.5")])
