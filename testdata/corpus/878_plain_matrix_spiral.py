"""Matrix utilities as plain functions, with one decorator that checks the argument is square."""
import functools


def square_only(func):
    @functools.wraps(func)
    def wrapper(m, *args):
        if any(len(row) != len(m) for row in m):
            raise ValueError(f"{func.__name__} needs a square matrix")
        return func(m, *args)
    return wrapper


def spiral(m):
    out = []
    while m:
        out += m[0]
        m = [list(r) for r in zip(*m[1:])][::-1]
    return out


@square_only
def rotate(m):
    return [list(r) for r in zip(*m[::-1])]


@square_only
def trace(m):
    return sum(m[i][i] for i in range(len(m)))


grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print(spiral(grid), spiral([[1, 2, 3, 4], [5, 6, 7, 8]]))
print(rotate(grid), trace(grid), trace(rotate(rotate(grid))))
try:
    rotate([[1, 2, 3], [4, 5, 6]])
except ValueError as e:
    print("ValueError:", e)
print([[grid[r][c] for r in range(3)] for c in range(3)] == [list(t) for t in zip(*grid)])
