"""yield used as an expression: in assignments, arguments, conditions and f-strings."""


def accumulator():
    total = 0
    while True:
        total += (yield total) or 0


def echo():
    print("received", (yield "first"))
    print(f"got {(yield 'second')!r}")
    x = yield
    return x


acc = accumulator()
print(next(acc), acc.send(5), acc.send(10), next(acc), acc.send(-3))

e = echo()
print(next(e))
print(e.send("hello"))
print(e.send(42))
try:
    e.send("final")
except StopIteration as stop:
    print("returned", stop.value)


def gate(threshold):
    passed = []
    while len(passed) < 3:
        if (value := (yield len(passed))) >= threshold:
            passed.append(value)
    return passed


g = gate(10)
next(g)
for v in [3, 12, 7, 15, 30, 40]:
    try:
        print(v, "->", g.send(v))
    except StopIteration as stop:
        print(v, "-> done", stop.value)
        break
