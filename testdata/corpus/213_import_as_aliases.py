import math as m
import json as js
from typing import Dict as D, List as L
from math import sqrt as square_root, inf


def norms(vectors: L[L[float]]) -> D[str, float]:
    return {str(v): round(square_root(sum(x * x for x in v)), 4) for v in vectors}


vecs = [[3, 4], [1, 1, 1], [0.5, 0.5], []]
print(js.dumps(norms(vecs)))
print(m.floor(m.pi * 1000) / 1000, m.ceil(-0.5), inf > 1e308)
print(js.loads(js.dumps({"ok": True}))["ok"])
smallest = min((square_root(x) for x in [9, 2, 16]), default=inf)
print(smallest, min([], default=inf))
