"""Subclassing collections.namedtuple to add methods and a computed property."""
from collections import namedtuple


class Product(namedtuple("Product", "sku name price stock")):
    __slots__ = ()

    @property
    def value(self):
        return self.price * self.stock

    def restock(self, n):
        return self._replace(stock=self.stock + n)

    def __str__(self):
        return f"{self.name} ({self.sku}): {self.stock} @ {self.price}"


items = [Product("p1", "pen", 1.5, 100), Product("p2", "pad", 3.0, 0), Product("p3", "ink", 7.25, 12)]
for it in items:
    print(it)
print(items[1])
print(items[1].restock(5), items[1].stock)
print(sorted(items, key=lambda p: p.value, reverse=True)[0].name, sum(p.value for p in items))
print(Product._fields, items[0][1], items[0]._asdict())
print(isinstance(items[0], tuple), items[0] == ("p1", "pen", 1.5, 100))
