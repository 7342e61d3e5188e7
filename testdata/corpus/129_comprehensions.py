matrix = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

print([row[i] for i in range(3) for row in matrix][:4])
print([[row[i] for row in matrix] for i in range(3)])
print([x for row in matrix for x in row if x % 2 == 0])
print({x: x ** 2 for x in range(5)})
print({word: len(word) for word in "the quick brown fox".split()})
print(sorted({len(w) for w in "a bb cc ddd e".split()}))
print([(x, y) for x in range(3) for y in range(3) if x < y])
print(["even" if n % 2 == 0 else "odd" for n in range(5)])

inventory = {"apple": 0, "pear": 4, "fig": 12, "kiwi": 0}
in_stock = {k: v for k, v in inventory.items() if v}
print(in_stock)
inverted = {v: k for k, v in {"a": 1, "b": 2}.items()}
print(inverted)
grid = [["." for _ in range(4)] for _ in range(2)]
grid[1][2] = "#"
print("\n".join("".join(r) for r in grid))
print([c.upper() for c in "héllo" if c not in "aeiou"])
