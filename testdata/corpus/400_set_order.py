"""Unique values and set algebra over integer IDs, printed as Python prints sets."""

orders = [105, 3, 42, 3, 17, 105, 8, 64, 42, 1000, -7]
unique = set(orders)
print("unique ids:", unique)
print("as list:", list(unique))
print("count:", len(unique))

team_a = {12, 7, 3, 40, 25}
team_b = {3, 25, 99, 7, 1024}
print("both:", team_a & team_b)
print("either:", team_a | team_b)
print("only a:", team_a - team_b)
print("one side:", team_a ^ team_b)

squares = {n * n % 50 for n in range(1, 15)}
print("squares mod 50:", squares)

pending = {30, 10, 20}
while pending:
    task = pending.pop()
    print("processing", task)

seen = set()
dupes = set()
for value in [5, 9, 5, 13, 9, 9, 21, 40]:
    if value in seen:
        dupes.add(value)
    seen.add(value)
print("seen:", seen, "dupes:", dupes)

active = set(range(10))
active.discard(3)
active -= {0, 9}
active |= {15, 31}
print("active:", active)
print("sorted:", sorted(active), "max:", max(active))

points = {(0, 0), (2, 1), (1, 2), (3, 3)}
print("points:", points)
print(", ".join(str(p) for p in {48, 16, 32, 0}))
