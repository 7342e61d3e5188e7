ages = [3, 17, 18, 25, 34, 35, 49, 50, 64, 65, 80, 102, 0, 29]
BUCKETS = [(0, 17, "child"), (18, 34, "young adult"), (35, 49, "adult"), (50, 64, "middle age"), (65, 200, "senior")]


def bucket(age: int) -> str:
    for lo, hi, label in BUCKETS:
        if lo <= age <= hi:
            return label
    raise ValueError(f"age out of range: {age}")


counts = {label: 0 for _, _, label in BUCKETS}
for a in ages:
    counts[bucket(a)] += 1
for label, n in counts.items():
    print(f"{label:<12} {'*' * n} {n}")

decades = {}
for a in sorted(ages):
    decades.setdefault(a // 10 * 10, []).append(a)
print(decades)
print({f"{d}s": len(v) for d, v in decades.items()})
