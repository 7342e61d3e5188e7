"""A library loan system: books, members, loans as dataclasses, overdue fines with dates."""
from dataclasses import dataclass, field
from datetime import date, timedelta


class LoanError(Exception):
    pass


@dataclass
class Book:
    isbn: str
    title: str
    available: bool = True


@dataclass
class Member:
    name: str
    loans: list = field(default_factory=list)
    MAX_LOANS = 2

    def borrow(self, book, today):
        if not book.available:
            raise LoanError(f"{book.title!r} is out")
        if len(self.loans) >= self.MAX_LOANS:
            raise LoanError(f"{self.name} has {len(self.loans)} loans")
        book.available = False
        self.loans.append((book, today + timedelta(days=14)))

    def fines(self, today, per_day=0.25):
        return sum(max(0, (today - due).days) * per_day for _, due in self.loans)


books = {b.isbn: b for b in [Book("1", "Dune"), Book("2", "Emma"), Book("3", "Ulysses")]}
ana, bo = Member("ana"), Member("bo")
start = date(2024, 3, 1)
for who, isbn in [(ana, "1"), (bo, "1"), (ana, "2"), (ana, "3"), (bo, "3")]:
    try:
        who.borrow(books[isbn], start)
        print(who.name, "borrowed", books[isbn].title)
    except LoanError as e:
        print("refused:", e)
print(ana.fines(date(2024, 3, 20)), bo.fines(date(2024, 4, 1)))
print([b.title for b in books.values() if b.available], Member.MAX_LOANS)
print(ana.loans[0][1].isoformat(), Member("x"))
