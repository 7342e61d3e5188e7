import heapq
import itertools

jobs = [
    ("backup", 3, 40),
    ("email", 1, 5),
    ("report", 2, 15),
    ("cleanup", 3, 10),
    ("index", 1, 25),
    ("alerts", 1, 5),
]

counter = itertools.count()
queue = []
for name, priority, minutes in jobs:
    heapq.heappush(queue, (priority, next(counter), name, minutes))

clock = 0
print("order of execution:")
while queue:
    priority, seq, name, minutes = heapq.heappop(queue)
    start = clock
    clock += minutes
    print(f"  [{start:3d}-{clock:3d}] p{priority} #{seq} {name}")

workers = [(0, w) for w in ["w1", "w2"]]
heapq.heapify(workers)
assignment = {}
for name, _, minutes in sorted(jobs, key=lambda j: -j[2]):
    free_at, worker = heapq.heappop(workers)
    assignment.setdefault(worker, []).append(name)
    heapq.heappush(workers, (free_at + minutes, worker))
print("assignment:", assignment)
print("makespan:", max(t for t, _ in workers))
print("next free:", heapq.heappushpop(workers, (30, "w3")))
print("replaced:", heapq.heapreplace(workers, (99, "w4")), sorted(workers))
