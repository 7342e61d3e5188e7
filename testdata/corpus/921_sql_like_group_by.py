"""A group-by/aggregate helper over records with itertools.groupby and operator.attrgetter."""
from dataclasses import dataclass
from itertools import groupby
from operator import attrgetter


@dataclass(frozen=True)
class Sale:
    region: str
    product: str
    units: int
    price: float

    @property
    def revenue(self):
        return self.units * self.price


SALES = [Sale("north", "tea", 10, 2.0), Sale("south", "tea", 4, 2.0), Sale("north", "coffee", 3, 5.5),
         Sale("south", "coffee", 8, 5.0), Sale("north", "tea", 6, 2.5), Sale("east", "cocoa", 2, 4.0)]


def group_sum(rows, key, value):
    rows = sorted(rows, key=attrgetter(key))
    return {k: round(sum(getattr(r, value) for r in grp), 2) for k, grp in groupby(rows, key=attrgetter(key))}


print(group_sum(SALES, "region", "revenue"))
print(group_sum(SALES, "product", "units"))
top = max(SALES, key=attrgetter("revenue"))
print(top, top.revenue)
print(sorted(SALES, key=attrgetter("region", "product"))[0])
print([s.product for s in sorted(SALES, key=lambda s: (-s.revenue, s.product))][:3])
