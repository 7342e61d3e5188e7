"""Generator expressions with several for-clauses and if-clauses."""
products = [("shirt", 25.0, ["S", "M", "L"]), ("hat", 15.0, ["M"]), ("coat", 120.0, ["M", "L", "XL"])]
colors = ["red", "navy"]

skus = (f"{name}-{size}-{color}" for name, price, sizes in products if price < 100
        for size in sizes if size != "S" for color in colors)
print(type(skus).__name__)
print(list(skus))

pythagorean = ((a, b, c) for c in range(1, 30) for b in range(1, c) for a in range(1, b) if a * a + b * b == c * c)
print(list(pythagorean))

matrix = [[1, -2, 3], [-4, 5, -6], [7, -8, 9]]
print(sum(v for row in matrix for v in row if v > 0))
print(max(abs(v) for row in matrix if row[0] > 0 for v in row))
print(sorted({(i + j) % 3 for i in range(3) for j in range(3) if i != j}))

words = ["apple", "banana", "cherry"]
pairs = ((w1, w2) for i, w1 in enumerate(words) for w2 in words[i + 1:] if set(w1) & set(w2))
for w1, w2 in pairs:
    print(w1, w2, sorted(set(w1) & set(w2)))

grid = {(x, y): x * y for x in range(4) for y in range(4) if x <= y}
print(len(grid), next(k for k, v in grid.items() if v > 4))
print(any(x * y == 6 for x in range(5) for y in range(5)), all(x + y < 8 for x in range(4) for y in range(4)))
