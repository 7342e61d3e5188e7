"""Caching inside a class: a per-instance dict cache and lru_cache on a staticmethod helper."""
from functools import lru_cache


class PriceBook:
    def __init__(self, prices):
        self.prices = prices
        self._cache = {}
        self.lookups = 0

    @staticmethod
    @lru_cache(maxsize=None)
    def tax_rate(region):
        return {"eu": 0.2, "us": 0.07}.get(region, 0.0)

    def gross(self, item, region):
        key = (item, region)
        if key not in self._cache:
            self.lookups += 1
            self._cache[key] = round(self.prices[item] * (1 + self.tax_rate(region)), 2)
        return self._cache[key]


book = PriceBook({"pen": 2.0, "book": 12.5})
orders = [("pen", "eu"), ("book", "us"), ("pen", "eu"), ("pen", "uk"), ("book", "us")]
print([book.gross(i, r) for i, r in orders], book.lookups)
print(PriceBook.tax_rate.cache_info())
other = PriceBook({"pen": 3.0})
print(other.gross("pen", "eu"), PriceBook.tax_rate.cache_info().hits)
