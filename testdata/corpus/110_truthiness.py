values = [0, 1, -1, 0.0, 0.1, "", " ", "0", [], [0], {}, {"": 0}, (), None, True, False, set(), range(0)]
for v in values:
    print(f"{v!r:>10} -> {bool(v)}")

name = ""
display = name or "anonymous"
print(display)
items = []
print("empty" if not items else "has items")
print(0 or None or "" or "last")
print(1 and "yes" and [1])
print([] and "never", None or 0)
print(all([]), any([]), all([1, "a"]), any([0, "", None]))
