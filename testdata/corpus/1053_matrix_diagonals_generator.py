def diagonals(matrix):
    """Yield the anti-diagonals of a rectangular matrix, top-left first."""
    rows, cols = len(matrix), len(matrix[0]) if matrix else 0
    for s in range(rows + cols - 1):
        yield [matrix[r][s - r] for r in range(max(0, s - cols + 1), min(rows, s + 1))]


def spiral(matrix):
    top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        yield from (matrix[top][c] for c in range(left, right + 1))
        yield from (matrix[r][right] for r in range(top + 1, bottom + 1))
        if top < bottom:
            yield from (matrix[bottom][c] for c in range(right - 1, left - 1, -1))
        if left < right:
            yield from (matrix[r][left] for r in range(bottom - 1, top, -1))
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1


def neighbors(matrix, r, c):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < len(matrix) and 0 <= c + dc < len(matrix[0]):
                yield matrix[r + dr][c + dc]


grid = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
print(list(diagonals(grid)))
print(list(spiral(grid)))
print(list(spiral([[1, 2], [3, 4]])), list(spiral([[7]])))
print(sorted(neighbors(grid, 0, 0)), sum(neighbors(grid, 1, 1)))
print(max(sum(d) for d in diagonals(grid)))
