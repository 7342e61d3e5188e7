import csv

with open("data/words.tsv", newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
print(max(rows, key=lambda r: int(r["count"]))["word"], [r["word"] for r in rows])
