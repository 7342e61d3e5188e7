from bisect import bisect, bisect_left, bisect_right
from collections import Counter

BREAKPOINTS = [60, 70, 80, 90]
GRADES = "FDCBA"


def grade(score):
    return GRADES[bisect(BREAKPOINTS, score)]


scores = {"ana": 93, "ben": 59, "cy": 70, "dee": 89.5, "eve": 60, "fay": 100, "gus": 79}
report = {name: grade(s) for name, s in scores.items()}
for name in sorted(report):
    print(f"{name:<4} {scores[name]:>5} {report[name]}")

dist = Counter(report.values())
print("distribution:", sorted(dist.items()))
print("missing grades:", [g for g in GRADES if dist[g] == 0])

ordered = sorted(scores.values())
print("at or above 80:", len(ordered) - bisect_left(ordered, 80))
print("strictly above 70:", len(ordered) - bisect_right(ordered, 70))
print("between 60 and 90:", bisect_left(ordered, 90) - bisect_left(ordered, 60))
print("edges:", [grade(x) for x in (0, 60, 69.99, 90, 1000)])
