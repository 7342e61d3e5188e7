# Pretty-print grouped inventory data built from records.
import pprint
from collections import defaultdict

records = [
    ("fruit", "apple", 12), ("fruit", "pear", 4), ("veg", "leek", 7),
    ("fruit", "plum", 0), ("veg", "kale", 3), ("grain", "rice", 25),
]
groups = defaultdict(list)
for kind, name, qty in records:
    groups[kind].append({"item": name, "qty": qty, "in_stock": qty > 0})

report = {kind: {"items": items, "total": sum(i["qty"] for i in items)} for kind, items in groups.items()}
pprint.pprint(report, width=70)
printer = pprint.PrettyPrinter(indent=2, width=45)
printer.pprint(report["veg"])
print(printer.pformat(sorted(report)))
