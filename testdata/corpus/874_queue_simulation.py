"""A bank-queue simulation with a seeded random generator, customer records and stats."""
import random
from dataclasses import dataclass
from collections import deque


@dataclass
class Customer:
    cid: int
    arrival: int
    service: int
    start: int = -1

    @property
    def wait(self):
        return self.start - self.arrival


class Teller:
    def __init__(self, name):
        self.name = name
        self.busy_until = 0
        self.served = []

    def free(self, t):
        return t >= self.busy_until


rng = random.Random(7)
arrivals = deque()
t = 0
for cid in range(10):
    t += rng.randint(0, 4)
    arrivals.append(Customer(cid, t, rng.randint(2, 6)))
tellers = [Teller("A"), Teller("B")]
waiting, done, clock = deque(), [], 0
while arrivals or waiting or any(not tl.free(clock) for tl in tellers):
    while arrivals and arrivals[0].arrival <= clock:
        waiting.append(arrivals.popleft())
    for tl in tellers:
        if tl.free(clock) and waiting:
            c = waiting.popleft()
            c.start = clock
            tl.busy_until = clock + c.service
            tl.served.append(c.cid)
            done.append(c)
    clock += 1
print([(c.cid, c.arrival, c.start) for c in done])
print({tl.name: tl.served for tl in tellers})
print("avg wait", round(sum(c.wait for c in done) / len(done), 2), "max", max(c.wait for c in done), "end", clock)
