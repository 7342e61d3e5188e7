"""A counter factory as a closure and as a class, compared side by side."""


def make_counter(start=0, step=1):
    count = start

    def counter():
        nonlocal count
        count += step
        return count

    counter.reset = lambda: None
    return counter


class Counter:
    def __init__(self, start=0, step=1):
        self.count = start
        self.step = step

    def __call__(self):
        self.count += self.step
        return self.count

    def reset(self):
        self.count = 0


c1 = make_counter(10, 5)
c2 = Counter(10, 5)
print([c1() for _ in range(3)], [c2() for _ in range(3)])
print(c1.__name__, type(c2).__name__, c1.__qualname__, c2.count)
c2.reset()
print(c2(), c2.count, callable(c1), callable(c2))
counters = {name: Counter() for name in ["a", "b"]}
for key in "abba":
    counters[key]()
print({k: v.count for k, v in counters.items()})
