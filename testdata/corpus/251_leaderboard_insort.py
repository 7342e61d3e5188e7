import bisect
from operator import itemgetter, neg

board = []  # sorted ascending by (-points, name)
events = [("zoe", 120), ("max", 90), ("ann", 120), ("lee", 150), ("bob", 90), ("kim", 10)]
for name, pts in events:
    bisect.insort(board, (neg(pts), name))
    rank = bisect.bisect_left(board, (neg(pts), name)) + 1
    print(f"{name} joins with {pts} at rank {rank}")

print("board:", [(name, -p) for p, name in board])
top = list(map(itemgetter(1), board[:3]))
print("podium:", top)

# insort with key: records stay whole, ordered by points
records = []
for name, pts in events:
    bisect.insort_right(records, {"name": name, "pts": pts}, key=itemgetter("pts"))
print([(r["name"], r["pts"]) for r in records])
pts_only = [r["pts"] for r in records]
print("players under 100:", bisect.bisect_left(pts_only, 100))
print("first with 120:", records[bisect.bisect_left(records, 120, key=itemgetter("pts"))]["name"])
print("last with 90:", records[bisect.bisect_right(records, 90, key=itemgetter("pts")) - 1]["name"])
bisect.insort_left(pts_only, 90)
print(pts_only, bisect.bisect(pts_only, 90, 0, 3), bisect.bisect_left(pts_only, 90, lo=2))
