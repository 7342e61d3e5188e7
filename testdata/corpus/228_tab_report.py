records = [("id", "service", "status"), ("1", "api", "up"), ("22", "db-primary", "degraded"), ("333", "cache", "up")]

tsv = "\n".join("\t".join(r) for r in records)
print(tsv.expandtabs(14))
print()
print(tsv.expandtabs(4))
print()
widths = [max(len(r[i]) for r in records) for i in range(3)]
for r in records:
    print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)))
print(repr("col1\tc2\t".expandtabs(6)), len("\t".expandtabs()))
