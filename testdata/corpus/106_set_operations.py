a = {1, 2, 3, 4, 5}
b = {4, 5, 6, 7}

print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(b - a), sorted(a ^ b))
print(sorted(a.union(b)), sorted(a.intersection(b)), sorted(a.difference(b)))
print({1, 2} <= a, {1, 9} <= a, a >= {2, 3}, a.issuperset({1}), a.isdisjoint({8, 9}))

seen = set()
duplicates = []
for n in [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]:
    if n in seen:
        duplicates.append(n)
    seen.add(n)
print(sorted(seen), duplicates)

s = set()
s.add(10)
s.update([20, 30], (40,))
s.discard(99)
s.remove(20)
print(sorted(s), len(s))
print(len({1, 1, 1}), len(set("hello")), {2, 1} == {1, 2})
evens = {x for x in range(10) if x % 2 == 0}
print(sorted(evens), 4 in evens, 5 not in evens)
