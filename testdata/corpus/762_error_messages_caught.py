# Catching the errors of common mistakes and reporting them as CPython
# words them: a float average of nothing, a missing keyword-only option,
# unpacking a function's None.


def average(values):
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def ratio(a, b):
    return a // b


def render(rows, *, title, width=20):
    return f"{title:^{width}}\n" + "\n".join(str(r) for r in rows)


def lookup(name):
    table = {"ann": (1, "admin")}
    if name in table:
        return table[name]
    return None


checks = [
    ("average([])", lambda: average([])),
    ("average([2, 3])", lambda: average([2, 3])),
    ("ratio(7.5, 0)", lambda: ratio(7.5, 0)),
    ("ratio(7, 0)", lambda: ratio(7, 0)),
    ("render([1])", lambda: render([1])),
    ("render([1], title='T', width=5)", lambda: render([1], title="T", width=5)),
    ("lookup('bob')", lambda: lookup("bob")),
]
for label, fn in checks:
    try:
        print(f"{label} -> {fn()!r}")
    except (ZeroDivisionError, TypeError) as e:
        print(f"{label} -> {type(e).__name__}: {e}")

for name in ["ann", "bob"]:
    try:
        uid, role = lookup(name)
        print(name, uid, role)
    except TypeError as e:
        print(name, "->", e)

grid = {(0, 0): 1}
try:
    print(grid[(1, "x")])
except KeyError as e:
    print("KeyError", e, e.args[0][1])
