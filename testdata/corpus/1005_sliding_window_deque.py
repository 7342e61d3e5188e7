"""Moving averages with a sliding-window generator backed by a deque."""
from collections import deque
from typing import Iterable, Iterator


def windows(values: Iterable[float], size: int) -> Iterator[tuple]:
    window = deque(maxlen=size)
    for v in values:
        window.append(v)
        if len(window) == size:
            yield tuple(window)


def moving_average(values, size):
    for w in windows(values, size):
        yield round(sum(w) / size, 2)


prices = [101.5, 102.0, 99.75, 98.5, 100.25, 103.0, 104.5, 102.75]
print(list(windows(range(6), 3)))
print(list(moving_average(prices, 3)))
print(list(moving_average(prices, 5)))
print(list(windows([1, 2], 3)))

signals = []
short = moving_average(prices, 2)
long = moving_average(prices, 4)
next(short)
next(short)
for day, (s, l) in enumerate(zip(short, long), start=4):
    signals.append((day, "buy" if s > l else "sell"))
print(signals)
