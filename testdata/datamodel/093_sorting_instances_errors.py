# Sorting instances needs __lt__ (sorted and min/max use <, heapq too);
# a key function avoids it.
import heapq


class Job:
    def __init__(self, p):
        self.p = p


jobs = [Job(3), Job(1)]
for name, fn in [("sorted", sorted), ("min", min), ("max", max)]:
    try:
        fn(jobs)
    except TypeError as e:
        print(name, type(e).__name__, e)
h = []
heapq.heappush(h, Job(1))
try:
    heapq.heappush(h, Job(2))
except TypeError as e:
    print("heappush", type(e).__name__, e)
print([j.p for j in sorted(jobs, key=lambda j: j.p)], max(jobs, key=lambda j: j.p).p)
print([p for p, _ in sorted([(1, Job(0)), (0, Job(1))])])
