"""iter(callable, sentinel): read a simulated stream until a sentinel value."""
import functools
import io
import random

buffer = io.StringIO("header\nrow1\nrow2\n\nignored after blank\n")
for line in iter(buffer.readline, "\n"):
    print("line:", line.rstrip())

data = io.BytesIO(b"abcdefghijklmnopq")
blocks = list(iter(functools.partial(data.read, 5), b""))
print(blocks)

rng = random.Random(7)
rolls = list(iter(lambda: rng.randint(1, 6), 6))
print("rolls before a six:", rolls)

queue = ["job1", "job2", "STOP", "job3"]
pop_front = functools.partial(queue.pop, 0)
print([job for job in iter(pop_front, "STOP")], "left:", queue)


class Counter:
    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return self.n


it = iter(Counter(), 4)
print(type(it).__name__, list(it), next(it, "done"))
