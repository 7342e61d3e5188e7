CSV = """name,department,salary,start_year
Alice,Engineering,120000,2018
Bob,Marketing,85000,2020
Carla,Engineering,135000,2015
Dan,Sales,70000,2021
Eve,Marketing,91000,2019
"""


def parse_csv(text: str):
    lines = [l for l in text.strip().splitlines() if l]
    header = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        values = line.split(",")
        row = dict(zip(header, values))
        row["salary"] = int(row["salary"])
        row["start_year"] = int(row["start_year"])
        rows.append(row)
    return header, rows


header, rows = parse_csv(CSV)
print(header)
print(rows[0])
by_dept = {}
for r in rows:
    by_dept.setdefault(r["department"], []).append(r["salary"])
for dept in sorted(by_dept):
    salaries = by_dept[dept]
    print(f"{dept:<12} n={len(salaries)} avg={sum(salaries) / len(salaries):>10,.1f} max={max(salaries):,}")
senior = [r["name"] for r in rows if 2024 - r["start_year"] >= 5]
print("5+ years:", senior)
