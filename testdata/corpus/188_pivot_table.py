records = [
    ("Q1", "apples", 100), ("Q1", "pears", 80), ("Q2", "apples", 120),
    ("Q2", "plums", 30), ("Q3", "pears", 95), ("Q3", "apples", 90), ("Q1", "apples", 5),
]

quarters = sorted({q for q, _, _ in records})
products = sorted({p for _, p, _ in records})
table = {p: {q: 0 for q in quarters} for p in products}
for q, p, n in records:
    table[p][q] += n

header = f"{'product':<8}" + "".join(f"{q:>6}" for q in quarters) + f"{'total':>7}"
print(header)
print("-" * len(header))
for p in products:
    row = table[p]
    print(f"{p:<8}" + "".join(f"{row[q]:>6}" for q in quarters) + f"{sum(row.values()):>7}")
col_totals = [sum(table[p][q] for p in products) for q in quarters]
print(f"{'total':<8}" + "".join(f"{t:>6}" for t in col_totals) + f"{sum(col_totals):>7}")
