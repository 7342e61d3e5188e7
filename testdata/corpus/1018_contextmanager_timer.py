"""A timing context manager built with contextlib.contextmanager and a fake clock."""
from contextlib import contextmanager


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def advance(self, seconds):
        self.now += seconds


clock = FakeClock()
timings = {}


@contextmanager
def timed(label):
    start = clock.now
    print(f"[{label}] start")
    try:
        yield timings
    finally:
        elapsed = clock.now - start
        timings[label] = elapsed
        print(f"[{label}] took {elapsed:.2f}s")


with timed("load"):
    clock.advance(1.25)

with timed("train") as t:
    for epoch in range(3):
        with timed(f"epoch{epoch}"):
            clock.advance(0.5 + epoch)
    print("so far:", sorted(t))

try:
    with timed("evaluate"):
        clock.advance(0.75)
        raise RuntimeError("metrics unavailable")
except RuntimeError as e:
    print("failed:", e)
print({k: round(v, 2) for k, v in sorted(timings.items(), key=lambda kv: -kv[1])})
