# Dataclasses grouped and compared (issue 30, item 7): frozen dataclasses
# as dict keys, order=True instances sorted, == between instances,
# asdict and replace. CPython and onetool run this file unchanged and
# print the same text; N sets the size (the benchmark rewrites that line).
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace

N = 30_000


@dataclass(frozen=True)
class Key:
    region: str
    year: int


@dataclass(order=True)
class Sale:
    amount: int
    sid: int
    region: str = field(compare=False)
    year: int = field(compare=False)
    tags: list = field(default_factory=list, compare=False, repr=False)

    @property
    def key(self):
        return Key(self.region, self.year)


REGIONS = ["north", "south", "east", "west", "center"]

sales = [Sale((i * 7919) % 5000, i, REGIONS[i % len(REGIONS)], 2020 + (i // 7) % 5)
         for i in range(N)]

groups = defaultdict(list)
for s in sales:
    groups[s.key].append(s)
print("groups", len(groups))

totals = {k: sum(s.amount for s in v) for k, v in groups.items()}
best = max(totals, key=totals.get)
print("best", best, totals[best])

ranked = sorted(sales)
print("smallest", ranked[0], "largest", ranked[-1])

dups = 0
for a, b in zip(ranked, ranked[1:]):
    if a == b:
        dups += 1
print("equal neighbours", dups)

seen = set(Key(s.region, s.year) for s in sales)
print("keys", len(seen), Key("north", 2020) in seen)

bumped = [replace(s, amount=s.amount + 1) for s in sales[:2000]]
print("bumped", sum(b.amount for b in bumped) - sum(s.amount for s in sales[:2000]))
print("asdict", asdict(ranked[len(ranked) // 2]))
print("matches", sum(1 for s in sales if s == Sale(s.amount, s.sid, "", 0)))
