"""Invoice lines as dataclasses with Decimal money, computed fields and rounding."""
from dataclasses import dataclass, field
from decimal import Decimal, ROUND_HALF_UP


@dataclass
class Line:
    desc: str
    qty: int
    unit: Decimal
    total: Decimal = field(init=False)

    def __post_init__(self):
        self.total = (self.unit * self.qty).quantize(Decimal("0.01"), ROUND_HALF_UP)


@dataclass
class Invoice:
    number: str
    lines: list = field(default_factory=list)
    vat: Decimal = Decimal("0.20")

    def add(self, desc, qty, unit):
        self.lines.append(Line(desc, qty, Decimal(unit)))
        return self

    @property
    def net(self):
        return sum((l.total for l in self.lines), Decimal("0"))

    @property
    def gross(self):
        return (self.net * (1 + self.vat)).quantize(Decimal("0.01"), ROUND_HALF_UP)


inv = Invoice("INV-7").add("widget", 3, "2.335").add("gadget", 1, "19.99").add("bolt", 12, "0.125")
for l in inv.lines:
    print(l)
print(inv.net, inv.gross)
print(f"{'total':>10}: {inv.gross:>8}")
print(repr(inv.vat), Line("x", 2, Decimal("1.005")).total)
