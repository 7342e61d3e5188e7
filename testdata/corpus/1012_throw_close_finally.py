"""throw() and close() on generators that hold resources in try/finally."""


def reader(name, lines):
    print(f"open {name}")
    try:
        for number, line in enumerate(lines, 1):
            yield number, line
    finally:
        print(f"close {name}")


r = reader("a.txt", ["alpha", "beta", "gamma"])
print(next(r))
r.close()
print("after close:", next(r, "exhausted"))

r = reader("b.txt", ["one", "two"])
print(next(r))
try:
    r.throw(ValueError("bad checksum"))
except ValueError as e:
    print("propagated:", e)
print(next(r, "exhausted"))

r = reader("c.txt", ["x"])
r.close()
print("closing an unstarted generator runs nothing:", next(r, "exhausted"))

for item in reader("d.txt", ["first", "second", "third"]):
    if item[0] == 2:
        print("breaking at", item)
        break
print("loop done")

r = reader("e.txt", [])
print(list(r))
