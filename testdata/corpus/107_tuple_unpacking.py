point = (3, 4)
x, y = point
print(x, y)

a, b = 1, 2
a, b = b, a
print(a, b)

first, *rest = [10, 20, 30, 40]
print(first, rest)
*init, last = "abcde"
print(init, last)
head, *middle, tail = range(6)
print(head, middle, tail)
one, *empty = [1]
print(one, empty)

(p, q), r = (1, 2), 3
print(p, q, r)
for name, (lat, lon) in [("Paris", (48.85, 2.35)), ("Tokyo", (35.68, 139.69))]:
    print(f"{name}: {lat:.1f}, {lon:.1f}")

records = [("ann", 3, "x"), ("bob", 5, "y")]
for name, count, _ in records:
    print(name, count)
key, value = "user=admin".split("=")
print(key, value)
