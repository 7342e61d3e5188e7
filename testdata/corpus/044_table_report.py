from typing import List, Dict, Any

employees: List[Dict[str, Any]] = [
    {"name": "Alice", "dept": "Engineering", "salary": 125000, "rating": 4.7},
    {"name": "Bob", "dept": "Sales", "salary": 68000, "rating": 3.9},
    {"name": "Chloé", "dept": "Engineering", "salary": 142500, "rating": 4.9},
    {"name": "Dmitri", "dept": "Support", "salary": 51000, "rating": 4.2},
    {"name": "Eve", "dept": "Sales", "salary": 73250, "rating": 4.0},
]

columns = ["name", "dept", "salary", "rating"]
widths = {c: max(len(c), *(len(str(e[c])) for e in employees)) for c in columns}
widths["salary"] += 3

header = " | ".join(c.title().ljust(widths[c]) for c in columns)
print(header)
print("-+-".join("-" * widths[c] for c in columns))
for e in sorted(employees, key=lambda e: (e["dept"], -e["salary"])):
    print(" | ".join([
        e["name"].ljust(widths["name"]),
        e["dept"].ljust(widths["dept"]),
        f"{e['salary']:>{widths['salary']},}",
        f"{e['rating']:>{widths['rating']}.1f}",
    ]))
total = sum(e["salary"] for e in employees)
print(f"{'Total':<{widths['name']}}   {'':<{widths['dept']}}   {total:>{widths['salary']},}")
