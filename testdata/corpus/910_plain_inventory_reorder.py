"""Deciding reorders from stock levels with plain dicts, sorted and a small predicate registry."""
RULES = {}


def rule(name):
    def deco(fn):
        RULES[name] = fn
        return fn
    return deco


@rule("low")
def low_stock(item):
    return item["stock"] < item["min"]


@rule("fast")
def fast_mover(item):
    return item["sold_7d"] > 2 * item["stock"]


STOCK = [
    {"sku": "A", "stock": 3, "min": 5, "sold_7d": 4},
    {"sku": "B", "stock": 40, "min": 10, "sold_7d": 12},
    {"sku": "C", "stock": 8, "min": 5, "sold_7d": 30},
    {"sku": "D", "stock": 0, "min": 2, "sold_7d": 0},
]
flags = {item["sku"]: [name for name, fn in RULES.items() if fn(item)] for item in STOCK}
print(flags)
reorder = sorted((s for s in STOCK if flags[s["sku"]]), key=lambda s: (-len(flags[s["sku"]]), s["sku"]))
for s in reorder:
    qty = max(s["min"] * 2, s["sold_7d"]) - s["stock"]
    print(f"{s['sku']}: order {qty} ({', '.join(flags[s['sku']])})")
print(sum(1 for f in flags.values() if not f), list(RULES))
