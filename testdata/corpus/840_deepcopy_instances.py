"""copy.copy versus copy.deepcopy of objects holding lists, and a shared reference kept."""
import copy


class Board:
    def __init__(self, size):
        self.size = size
        self.cells = [["." for _ in range(size)] for _ in range(size)]
        self.history = []

    def place(self, r, c, mark):
        self.cells[r][c] = mark
        self.history.append((r, c, mark))
        return self

    def __str__(self):
        return "\n".join("".join(row) for row in self.cells)

    def __eq__(self, other):
        return self.cells == other.cells


b = Board(3).place(1, 1, "X")
shallow = copy.copy(b)
deep = copy.deepcopy(b)
shallow.place(0, 0, "O")
print(b)
print("--")
print(deep)
print(b == shallow, b == deep, len(b.history), len(deep.history))
print(shallow.cells is b.cells, deep.cells is b.cells, type(deep).__name__)
nested = {"boards": [b, b]}
dup = copy.deepcopy(nested)
print(dup["boards"][0] is dup["boards"][1], dup["boards"][0] is b)
