# __setitem__, __delitem__ (with slices), __reversed__ and their absence.
class Grid:
    def __init__(self):
        self.cells = {}

    def __setitem__(self, key, value):
        print("set", key, value)
        if isinstance(key, slice):
            key = (key.start, key.stop, key.step)
        self.cells[key] = value

    def __delitem__(self, key):
        print("del", key)
        del self.cells[key]

    def __getitem__(self, key):
        return self.cells[key]

    def __reversed__(self):
        return iter(sorted(self.cells, key=str, reverse=True))


g = Grid()
g[0, 1] = "a"
g[2, 2] = "b"
g[1:3] = "slice"
del g[0, 1]
print(list(reversed(g)), g[2, 2])
try:
    del g[9, 9]
except KeyError as e:
    print(type(e).__name__, e)


class ReadOnly:
    def __getitem__(self, i):
        return i


for stmt in ("set", "del"):
    try:
        if stmt == "set":
            ReadOnly()[0] = 1
        else:
            del ReadOnly()[0]
    except TypeError as e:
        print(type(e).__name__, e)
