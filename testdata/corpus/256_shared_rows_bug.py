import copy
from collections import Counter, defaultdict

row = [0] * 3
grid_bad = [row] * 3
grid_bad[0][0] = 1
print("aliased rows:", grid_bad)

grid = [copy.copy(row) for _ in range(3)]
grid[0][0] = 1
print("copied rows:", grid)

template = {"tags": [], "meta": {"seen": 0}}
items = []
for name in ["a", "b", "c"]:
    item = copy.deepcopy(template)
    item["tags"].append(name)
    item["meta"]["seen"] += 1
    items.append(item)
print(items, template)

shared = [1, 2]
nested = {"x": shared, "y": shared}
clone = copy.deepcopy(nested)
clone["x"].append(3)
print("memo keeps sharing:", clone, clone["x"] is clone["y"], nested)

tally = Counter("mississippi")
snapshot = copy.copy(tally)
tally["s"] += 10
print(snapshot.most_common(2), tally.most_common(1), type(snapshot).__name__)
groups = defaultdict(list, {"k": [1]})
g2 = copy.deepcopy(groups)
g2["k"].append(2)
g2["new"].append(0)
print(dict(groups), dict(g2))
t = (1, [2])
t2 = copy.deepcopy(t)
t2[1].append(3)
print(t, t2, copy.copy(t) is t)
