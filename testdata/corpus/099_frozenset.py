admins = frozenset(["alice", "root"])
editors = frozenset({"bob", "alice", "carol"})

print(len(admins), "alice" in admins, "eve" in editors)
print(sorted(admins | editors))
print(sorted(admins & editors))
print(sorted(editors - admins))
print(sorted(admins ^ editors))
print(admins <= frozenset(["alice", "root", "x"]), admins.isdisjoint({"zed"}))

# frozensets are hashable, so they can be dict keys
pair_scores = {frozenset([1, 2]): 10, frozenset([2, 3]): 7}
print(pair_scores[frozenset([2, 1])])
print(frozenset([3, 1]) == frozenset([1, 3]), frozenset() == set())

seen = set()
for a, b in [(1, 2), (2, 1), (3, 4), (4, 3), (1, 2)]:
    seen.add(frozenset([a, b]))
print(len(seen), sorted(sorted(p) for p in seen))
