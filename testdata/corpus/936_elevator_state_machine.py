"""An elevator controller: direction Enum, request queue, and a step() state machine."""
from enum import Enum


class Dir(Enum):
    UP = 1
    DOWN = -1
    IDLE = 0


class Elevator:
    def __init__(self, floors):
        self.floors = floors
        self.floor = 0
        self.dir = Dir.IDLE
        self.requests = set()
        self.log = []

    def call(self, *floors):
        for f in floors:
            if not 0 <= f < self.floors:
                raise ValueError(f"no floor {f}")
            self.requests.add(f)

    def step(self):
        if self.floor in self.requests:
            self.requests.discard(self.floor)
            self.log.append(f"open@{self.floor}")
        if not self.requests:
            self.dir = Dir.IDLE
            return False
        above = any(r > self.floor for r in self.requests)
        below = any(r < self.floor for r in self.requests)
        if self.dir is Dir.UP and not above or self.dir is Dir.DOWN and not below or self.dir is Dir.IDLE:
            self.dir = Dir.UP if above else Dir.DOWN
        self.floor += self.dir.value
        return True


e = Elevator(10)
e.call(5, 2, 8)
steps = 0
while e.step():
    steps += 1
    if steps == 3:
        e.call(1)
print(e.log, steps, e.floor, e.dir)
try:
    e.call(12)
except ValueError as err:
    print("ValueError:", err)
