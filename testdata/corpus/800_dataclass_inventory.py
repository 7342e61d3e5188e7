"""Inventory records with a dataclass, default_factory and a report grouped by category."""
from dataclasses import dataclass, field, asdict


@dataclass
class Item:
    sku: str
    name: str
    price: float
    qty: int = 0
    tags: list = field(default_factory=list)

    def total(self) -> float:
        return round(self.price * self.qty, 2)


items = [
    Item("A1", "bolt", 0.25, 400, ["hardware"]),
    Item("B2", "hammer", 12.5, 3, ["tools", "hardware"]),
    Item("C3", "glue", 4.0),
    Item("D4", "saw", 22.0, 2, ["tools"]),
]
print(items[0])
print(items[2])
by_tag = {}
for it in items:
    for tag in it.tags or ["untagged"]:
        by_tag.setdefault(tag, []).append(it.name)
for tag in sorted(by_tag):
    print(f"{tag:<10} {', '.join(by_tag[tag])}")
print("value:", sum(it.total() for it in items))
print(asdict(items[1]))
print(Item("A1", "bolt", 0.25, 400, ["hardware"]) == items[0])
items[2].tags.append("adhesive")
print(items[2].tags, Item("X", "x", 1.0).tags)
