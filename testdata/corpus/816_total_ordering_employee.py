"""Employees ordered with functools.total_ordering, grouped by department."""
from functools import total_ordering
from collections import defaultdict


@total_ordering
class Employee:
    def __init__(self, name, dept, salary):
        self.name, self.dept, self.salary = name, dept, salary

    def __eq__(self, other):
        return (self.salary, self.name) == (other.salary, other.name)

    def __lt__(self, other):
        return (self.salary, self.name) < (other.salary, other.name)

    def __repr__(self):
        return f"<{self.name} {self.dept} {self.salary}>"


staff = [
    Employee("ana", "eng", 120), Employee("bo", "ops", 90),
    Employee("cy", "eng", 95), Employee("di", "ops", 90), Employee("ed", "eng", 150),
]
print(sorted(staff))
print(max(staff), min(staff))
print(staff[1] <= staff[3], staff[1] >= staff[3], staff[0] > staff[2])
groups = defaultdict(list)
for e in staff:
    groups[e.dept].append(e)
for dept, members in sorted(groups.items()):
    top = max(members)
    print(dept, len(members), "top:", top.name, "payroll:", sum(m.salary for m in members))
try:
    hash(staff[0])
except TypeError as e:
    print("TypeError:", e)
