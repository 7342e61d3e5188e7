def spiral_order(matrix):
    result = []
    if not matrix:
        return result
    top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        result.extend(matrix[top][c] for c in range(left, right + 1))
        top += 1
        result.extend(matrix[r][right] for r in range(top, bottom + 1))
        right -= 1
        if top <= bottom:
            result.extend(matrix[bottom][c] for c in range(right, left - 1, -1))
            bottom -= 1
        if left <= right:
            result.extend(matrix[r][left] for r in range(bottom, top - 1, -1))
            left += 1
    return result


def generate(n):
    m = [[0] * n for _ in range(n)]
    positions = spiral_order([[(r, c) for c in range(n)] for r in range(n)])
    for i, (r, c) in enumerate(positions, start=1):
        m[r][c] = i
    return m


print(spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))
print(spiral_order([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]))
print(spiral_order([]), spiral_order([[1]]))
for row in generate(4):
    print(" ".join(f"{v:2d}" for v in row))
