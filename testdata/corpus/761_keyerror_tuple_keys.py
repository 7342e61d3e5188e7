# A dict keyed by tuples: the KeyError of a missing key shows the tuple
# as Python writes it.
from collections import OrderedDict

grid = {(0, 0): "start", (0, 1): "wall", (1, 1): "goal"}
routes = {("ams", "ber"): 650, ("ber", "vie"): 680}
cache = OrderedDict()
cache[("user", 1)] = "ann"

lookups = [
    (grid, (2, 3)),
    (routes, ("ams", "vie")),
    (routes, ("ber", "vie")),
    (cache, ("user", 2)),
    (grid, ("x",)),
]
for table, key in lookups:
    try:
        print("found", table[key])
    except KeyError as e:
        print("missing:", e)
        print("as text:", str(e), repr(e))

try:
    del routes[("vie", "ams")]
except KeyError as e:
    print(type(e).__name__, e)
try:
    routes.pop(("it's", "q"))
except KeyError as e:
    print(type(e).__name__, e)
