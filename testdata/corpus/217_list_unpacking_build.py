header = ["id", "name"]
extra = ["email", "created"]
columns = [*header, *extra, "active"]
print(columns)

defaults = [0, 0, 0]
partial = [5, 7]
filled = [*partial, *defaults[len(partial):]]
print(filled)

def row(*cells, sep=" | ", end="\n"):
    print(*cells, sep=sep, end=end)

row(*columns)
row(*range(3), sep=", ")
row("no", "newline", end="")
row(" <- same line", end="!\n")
print(*["a", "b"], *("c",), sep="-")
print("values:", *filled, sep="\t")
nested = [[1, 2], [3], []]
print([*nested[0], *nested[1], *nested[2]], [x for sub in nested for x in sub])
