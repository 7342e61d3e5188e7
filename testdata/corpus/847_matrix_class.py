"""A small Matrix class with __matmul__, __eq__, __getitem__ on tuples and a transpose."""


class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self.n, self.m = len(self.rows), len(self.rows[0])

    @classmethod
    def identity(cls, n):
        return cls([[int(i == j) for j in range(n)] for i in range(n)])

    def __getitem__(self, idx):
        i, j = idx
        return self.rows[i][j]

    def __matmul__(self, other):
        if self.m != other.n:
            raise ValueError(f"shape mismatch: {self.n}x{self.m} @ {other.n}x{other.m}")
        return Matrix([[sum(self[i, k] * other[k, j] for k in range(self.m))
                        for j in range(other.m)] for i in range(self.n)])

    def transpose(self):
        return Matrix(zip(*self.rows))

    def __eq__(self, other):
        return isinstance(other, Matrix) and self.rows == other.rows

    def __repr__(self):
        return "\n".join(" ".join(f"{v:3}" for v in row) for row in self.rows)


a = Matrix([[1, 2, 3], [4, 5, 6]])
print(a @ a.transpose())
print(a.transpose() @ a == (a.transpose() @ a), a @ Matrix.identity(3) == a)
print(a[1, 2], a.transpose()[2, 0])
try:
    a @ a
except ValueError as e:
    print("ValueError:", e)
