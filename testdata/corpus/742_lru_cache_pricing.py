"""Memoised price lookups with functools.lru_cache called as a function, and itertools counters."""
import functools
import itertools
import operator

CALLS = []


def quote(sku, qty=1, currency="USD"):
    """Price of qty units of sku."""
    CALLS.append((sku, qty, currency))
    base = {"apple": 0.5, "pear": 0.75, "qty": 2.0}[sku]
    return round(base * qty * (1.1 if currency == "EUR" else 1.0), 2)


quote = functools.lru_cache(maxsize=4)(quote)
print(quote.__name__, "-", quote.__doc__)
print(quote("apple", 10), quote("apple", 10), quote("apple", qty=10))
# A positional "qty" and the keyword qty= are different calls.
print(quote("qty", 3), quote(qty=3, sku="pear"))
print(quote.cache_info())
print(len(CALLS), CALLS[-2:])
quote.cache_clear()
print(quote.cache_info().currsize, type(quote.cache_info()).__name__)

ids = itertools.count(1000, 5)
print(ids)
orders = [(next(ids), sku) for sku in ["apple", "pear", "apple"]]
print(orders, ids)
filler = itertools.repeat("-", 3)
print(filler, "".join(filler), filler)
print(list(itertools.islice(itertools.count(0.5, 0.25), 3)))

labels = functools.reduce(operator.concat, (["a"], ["b", "c"]), [])
print(labels)
try:
    operator.concat(1, 2)
except TypeError as e:
    print("TypeError:", e)
