"""A tiny in-memory query builder with chained methods returning new objects."""
from dataclasses import dataclass, field, replace
from typing import Callable, List


@dataclass(frozen=True)
class Query:
    rows: tuple
    filters: tuple = ()
    order: str = ""
    limit_n: int = -1

    def where(self, pred: Callable) -> "Query":
        return replace(self, filters=self.filters + (pred,))

    def order_by(self, key: str) -> "Query":
        return replace(self, order=key)

    def limit(self, n: int) -> "Query":
        return replace(self, limit_n=n)

    def all(self) -> List[dict]:
        out = [r for r in self.rows if all(f(r) for f in self.filters)]
        if self.order:
            desc = self.order.startswith("-")
            out.sort(key=lambda r: r[self.order.lstrip("-")], reverse=desc)
        return out if self.limit_n < 0 else out[: self.limit_n]


ROWS = (
    {"name": "ana", "age": 31, "city": "Oslo"},
    {"name": "bo", "age": 25, "city": "Rome"},
    {"name": "cy", "age": 42, "city": "Oslo"},
    {"name": "di", "age": 19, "city": "Lima"},
)
q = Query(ROWS)
print([r["name"] for r in q.where(lambda r: r["city"] == "Oslo").all()])
print([r["name"] for r in q.order_by("-age").limit(2).all()])
adults = q.where(lambda r: r["age"] >= 21)
print([r["name"] for r in adults.order_by("name").all()], len(adults.filters), len(q.filters))
print(q.limit(1).all(), q.order, adults.order_by("age").order)
