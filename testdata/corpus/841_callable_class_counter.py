"""Callable objects with __call__ used as key functions, callbacks and accumulators."""


class Accumulator:
    def __init__(self, start=0):
        self.total = start
        self.calls = 0

    def __call__(self, value):
        self.calls += 1
        self.total += value
        return self.total


class ByField:
    def __init__(self, name, reverse=False):
        self.name, self.reverse = name, reverse

    def __call__(self, record):
        value = record[self.name]
        return -value if self.reverse else value


acc = Accumulator(100)
print([acc(x) for x in [5, 10, -3]], acc.calls, callable(acc), callable(5))
rows = [{"n": "a", "score": 3}, {"n": "b", "score": 9}, {"n": "c", "score": 5}]
print([r["n"] for r in sorted(rows, key=ByField("score"))])
print([r["n"] for r in sorted(rows, key=ByField("score", reverse=True))])
print(max(rows, key=ByField("score"))["n"], list(map(Accumulator(), [1, 2, 3])))
