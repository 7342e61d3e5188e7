"""itertools.pairwise and a hand-written lookahead generator for change detection."""
from itertools import pairwise


def with_next(iterable, last=None):
    it = iter(iterable)
    try:
        current = next(it)
    except StopIteration:
        return
    for following in it:
        yield current, following
        current = following
    yield current, last


readings = [("08:00", 20.5), ("09:00", 21.0), ("10:00", 23.5), ("11:00", 23.0), ("12:00", 26.0)]
for (t1, v1), (t2, v2) in pairwise(readings):
    change = v2 - v1
    flag = " <- jump" if abs(change) >= 2 else ""
    print(f"{t1}->{t2}: {change:+.1f}{flag}")

print(list(pairwise("abcd")), list(pairwise([1])))
print(list(with_next([1, 2, 3])), list(with_next([])))
steps = ["fetch", "parse", "save"]
for step, nxt in with_next(steps, last="done"):
    print(f"{step} then {nxt}")
increasing = all(a < b for a, b in pairwise(v for _, v in readings))
gaps = [b - a for a, b in pairwise([1, 4, 9, 16, 25])]
print(increasing, gaps, list(pairwise(gaps)))
