"""A cooperative round-robin scheduler running generators as tasks."""
from collections import deque


def task(name, steps):
    for i in range(1, steps + 1):
        print(f"{name} step {i}/{steps}")
        yield
    return f"{name} finished"


def ticker(period):
    tick = 0
    while True:
        tick += 1
        if tick % period == 0:
            print(f"  tick {tick}")
        yield


class Scheduler:
    def __init__(self):
        self.ready = deque()
        self.results = []

    def spawn(self, gen, daemon=False):
        self.ready.append((gen, daemon))

    def run(self):
        while any(not daemon for _, daemon in self.ready):
            gen, daemon = self.ready.popleft()
            try:
                next(gen)
            except StopIteration as stop:
                self.results.append(stop.value)
            else:
                self.ready.append((gen, daemon))
        for gen, _ in self.ready:
            gen.close()


s = Scheduler()
s.spawn(task("download", 3))
s.spawn(task("parse", 2))
s.spawn(ticker(2), daemon=True)
s.spawn(task("upload", 1))
s.run()
print(s.results)
