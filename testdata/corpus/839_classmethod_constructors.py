"""Alternative constructors with @classmethod, inherited so that cls is the subclass."""
from datetime import date


class Person:
    count = 0

    def __init__(self, name, born):
        self.name = name
        self.born = born
        type(self).count += 1

    @classmethod
    def from_string(cls, text):
        name, year = text.split(",")
        return cls(name.strip(), int(year))

    @classmethod
    def from_dict(cls, d):
        return cls(d["name"], d.get("born", 2000))

    @staticmethod
    def valid_year(year):
        return 1900 <= year <= 2024

    def age(self, today=date(2024, 1, 1)):
        return today.year - self.born

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.born})"


class Student(Person):
    count = 0


people = [Person.from_string("ana, 1990"), Student.from_string("bo,2004"), Student.from_dict({"name": "cy"})]
print(people)
print([p.age() for p in people])
print(Person.count, Student.count)
print(Person.valid_year(1850), people[0].valid_year(1999))
print(type(Student.from_dict({"name": "di"})).__name__, Student.count, Person.count)
