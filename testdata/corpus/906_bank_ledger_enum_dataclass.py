"""A double-entry ledger: transaction kinds as an Enum, entries as frozen dataclasses."""
from dataclasses import dataclass
from enum import Enum
from collections import defaultdict


class Kind(Enum):
    DEBIT = -1
    CREDIT = 1


@dataclass(frozen=True, order=True)
class Entry:
    day: int
    account: str
    kind: Kind
    amount: int

    @property
    def signed(self):
        return self.kind.value * self.amount


entries = [
    Entry(3, "cash", Kind.DEBIT, 50), Entry(1, "cash", Kind.CREDIT, 200),
    Entry(2, "rent", Kind.DEBIT, 120), Entry(2, "cash", Kind.DEBIT, 30),
    Entry(1, "rent", Kind.CREDIT, 150),
]
balances = defaultdict(int)
for e in sorted(entries, key=lambda e: (e.day, e.account)):
    balances[e.account] += e.signed
    print(f"day {e.day} {e.account:<5}{e.kind.name:<7}{e.signed:>5} -> {balances[e.account]}")
print(dict(balances))
by_kind = {k.name: sum(e.amount for e in entries if e.kind is k) for k in Kind}
print(by_kind)
try:
    sorted(entries)
except TypeError as e:
    print("TypeError:", e)
