def pascal(rows: int):
    triangle = []
    for r in range(rows):
        row = [1] * (r + 1)
        for c in range(1, r):
            row[c] = triangle[r - 1][c - 1] + triangle[r - 1][c]
        triangle.append(row)
    return triangle


tri = pascal(10)
width = len(" ".join(map(str, tri[-1])))
for row in tri:
    print(" ".join(map(str, row)).center(width))

print([sum(row) for row in tri])
print(tri[9][4], pascal(0), pascal(1))
assert all(row == row[::-1] for row in tri)
