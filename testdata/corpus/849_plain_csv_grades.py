"""Grading students from CSV text with csv.DictReader, statistics and a grade function."""
import csv
import io
import statistics

DATA = """name,math,physics,art
ana,91,85,70
bo,58,62,88
cy,75,91,65
di,88,79,95
"""


def grade(score):
    for bound, letter in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if score >= bound:
            return letter
    return "F"


class Stats:
    def __init__(self, values):
        self.values = values

    def __repr__(self):
        return (f"mean={statistics.mean(self.values):.1f} "
                f"median={statistics.median(self.values)} stdev={statistics.stdev(self.values):.2f}")


rows = list(csv.DictReader(io.StringIO(DATA)))
subjects = [k for k in rows[0] if k != "name"]
for row in rows:
    scores = [int(row[s]) for s in subjects]
    avg = sum(scores) / len(scores)
    print(f"{row['name']:<4} {avg:6.2f} {grade(avg)} {''.join(grade(s) for s in scores)}")
for s in subjects:
    print(s, Stats([int(r[s]) for r in rows]))
best = max(rows, key=lambda r: sum(int(r[s]) for s in subjects))
print("best:", best["name"])
