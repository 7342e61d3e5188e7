from typing import List

Matrix = List[List[float]]


def transpose(m: Matrix) -> Matrix:
    return [list(row) for row in zip(*m)]


def matmul(a: Matrix, b: Matrix) -> Matrix:
    if len(a[0]) != len(b):
        raise ValueError(f"shape mismatch: {len(a)}x{len(a[0])} @ {len(b)}x{len(b[0])}")
    bt = transpose(b)
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def identity(n: int) -> Matrix:
    return [[1 if i == j else 0 for j in range(n)] for i in range(n)]


def show(m: Matrix) -> None:
    for row in m:
        print(" ".join(f"{v:>5}" for v in row))


a = [[1, 2, 3], [4, 5, 6]]
b = [[7, 8], [9, 10], [11, 12]]
show(matmul(a, b))
show(transpose(a))
print(matmul(a, identity(3)) == a)
try:
    matmul(a, a)
except ValueError as e:
    print("error:", e)
