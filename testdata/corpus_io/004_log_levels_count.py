from collections import Counter

counts = Counter()
with open("logs/app.log") as f:
    for line in f:
        parts = line.split()
        if len(parts) > 2:
            counts[parts[2]] += 1
for level, n in counts.most_common():
    print(level, n)
