"""Exporting dataclass records to CSV text with csv.DictWriter and fields()."""
import csv
import io
from dataclasses import dataclass, fields, asdict


@dataclass
class Employee:
    id: int
    name: str
    dept: str
    salary: float


staff = [Employee(1, "Ana, Jr.", "eng", 120000.0), Employee(2, 'Bo "B"', "ops", 90000.5),
         Employee(3, "Cy", "eng", 95000.0)]
buf = io.StringIO()
writer = csv.DictWriter(buf, fieldnames=[f.name for f in fields(Employee)], lineterminator="\n")
writer.writeheader()
for e in staff:
    writer.writerow(asdict(e))
text = buf.getvalue()
print(text, end="")
back = [Employee(int(r["id"]), r["name"], r["dept"], float(r["salary"])) for r in csv.DictReader(io.StringIO(text))]
print(back == staff, back[1].name)
