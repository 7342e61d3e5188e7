matrix = [
    [1, 2, 3],
    [4, 5, 6],
]


def column(m, j):
    return [row[j] for row in m]


def diagonal(m):
    return [m[i][i] for i in range(len(m[0]))]


summary = {"first": column(matrix, 0), "last": column(matrix, 2), "diagonal": diagonal(matrix)}
print(summary)
