import itertools
import string

old = ["alpha", "beta", "gamma", "delta"]
new = ["alpha", "beta2", "gamma", "delta", "epsilon", "zeta"]

print(f"{'#':>2} {'old':<8} {'new':<8} status")
for i, (a, b) in enumerate(itertools.zip_longest(old, new, fillvalue="-"), 1):
    status = "same" if a == b else "added" if a == "-" else "changed"
    print(f"{i:>2} {a:<8} {b:<8} {status}")

readings = [3, 5, 4, 8, 8, 2]
print("deltas:", [b - a for a, b in itertools.pairwise(readings)])
print("rising:", sum(1 for a, b in itertools.pairwise(readings) if b > a))

labels = itertools.cycle(string.ascii_uppercase[:3])
print([f"{next(labels)}{n}" for n in range(1, 7)])

columns = list(itertools.zip_longest(*["abc", "de", "f"], fillvalue=" "))
print(columns)
word_chars = set(string.ascii_letters + string.digits + "_")
tokens = ["".join(g) for k, g in itertools.groupby("id_1 = x+42;", key=lambda ch: ch in word_chars) if k]
print("identifiers:", tokens)
print(string.capwords("the   QUICK brown-fox"), string.capwords("a-b-c", "-"))
print(list(itertools.accumulate("abc")), list(itertools.accumulate([1, 2, 3], lambda x, y: x * 10 + y)))
