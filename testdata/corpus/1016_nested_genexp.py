from statistics import mean

scores = {
    "alice": {"math": [90, 85, 77], "art": [60, 70]},
    "bob": {"math": [55, 65], "art": [88, 92, 95]},
    "cara": {"math": [100], "art": []},
}

# nested generator expressions: inner one per student, outer over students
averages = {name: mean(s for marks in subjects.values() for s in marks) for name, subjects in scores.items()}
print({k: round(v, 2) for k, v in averages.items()})

best_subject = {
    name: max((mean(m) for m in subjects.values() if m), default=None)
    for name, subjects in scores.items()
}
print({k: round(v, 2) for k, v in best_subject.items()})

rows = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
transposed = list(list(row[i] for row in rows) for i in range(3))
print(transposed)
row_sums = (sum(x for x in row) for row in rows)
print(list(row_sums), list(row_sums))

table = "\n".join(" ".join(f"{i * j:3d}" for j in range(1, 6)) for i in range(1, 4))
print(table)
flags = (any(c.isupper() for c in w) for w in ["abc", "aBc", "ABC", ""])
print(list(flags))
print(sum(sum(1 for c in word if c in "aeiou") for word in "generator expressions nest".split()))
