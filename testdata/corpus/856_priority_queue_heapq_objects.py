"""A job scheduler using heapq with objects ordered by __lt__."""
import heapq


class Job:
    def __init__(self, priority, name, seq):
        self.priority, self.name, self.seq = priority, name, seq

    def __lt__(self, other):
        return (self.priority, self.seq) < (other.priority, other.seq)

    def __repr__(self):
        return f"Job({self.priority}, {self.name!r})"


class Scheduler:
    def __init__(self):
        self.heap = []
        self.seq = 0

    def submit(self, name, priority=5):
        heapq.heappush(self.heap, Job(priority, name, self.seq))
        self.seq += 1

    def run(self, n):
        return [heapq.heappop(self.heap).name for _ in range(min(n, len(self.heap)))]


s = Scheduler()
for name, prio in [("backup", 9), ("email", 2), ("report", 5), ("alert", 1), ("cleanup", 9), ("sync", 2)]:
    s.submit(name, prio)
print(s.heap[0])
print(s.run(3))
print(s.run(10), s.run(1))
jobs = [Job(3, "c", 0), Job(1, "a", 1), Job(2, "b", 2)]
print(heapq.nsmallest(2, jobs), sorted(jobs), min(jobs))
