def solve_n_queens(n: int):
    solutions = []
    cols = [0] * n

    def safe(row: int, col: int) -> bool:
        for r in range(row):
            c = cols[r]
            if c == col or abs(c - col) == row - r:
                return False
        return True

    def place(row: int) -> None:
        if row == n:
            solutions.append(cols.copy())
            return
        for col in range(n):
            if safe(row, col):
                cols[row] = col
                place(row + 1)

    place(0)
    return solutions


for n in range(1, 8):
    print(n, len(solve_n_queens(n)))

first = solve_n_queens(6)[0]
for c in first:
    print(" ".join("Q" if i == c else "." for i in range(6)))
