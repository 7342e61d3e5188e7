"""A float range as a generator function and as a class with a generator __iter__."""
from decimal import Decimal


def frange(start, stop, step):
    if step == 0:
        raise ValueError("step must not be zero")
    count = 0
    value = start
    while (step > 0 and value < stop) or (step < 0 and value > stop):
        yield round(value, 10)
        count += 1
        value = start + count * step


class DecimalRange:
    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = map(Decimal, (start, stop, step))

    def __iter__(self):
        value = self.start
        while value < self.stop:
            yield value
            value += self.step

    def __len__(self):
        return sum(1 for _ in self)


print(list(frange(0, 1, 0.1)))
print(list(frange(1, 0, -0.25)))
print(list(frange(0, 0, 1)))
r = DecimalRange("0.1", "0.5", "0.1")
print([str(d) for d in r], len(r), sum(r))
gen = frange(0, 1, 0)
print("created lazily:", type(gen).__name__)
try:
    next(gen)
except ValueError as e:
    print("ValueError on first next():", e)
print(sum(frange(0, 10, 0.5)), max(frange(-1, 1, 0.3)))
