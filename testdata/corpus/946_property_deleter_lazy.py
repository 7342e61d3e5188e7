"""A lazily loaded property with a deleter that resets it, and hasattr on properties."""


class Report:
    loads = 0

    def __init__(self, rows):
        self._rows = rows
        self._summary = None

    @property
    def summary(self):
        if self._summary is None:
            Report.loads += 1
            self._summary = {"n": len(self._rows), "total": sum(self._rows)}
        return self._summary

    @summary.deleter
    def summary(self):
        self._summary = None

    @property
    def broken(self):
        return self._rows[99]


r = Report([3, 4, 5])
print(r.summary, r.summary, Report.loads)
del r.summary
r._rows.append(10)
print(r.summary, Report.loads)
print(hasattr(r, "summary"), hasattr(r, "nothing"))
try:
    hasattr(r, "broken")
except IndexError as e:
    print("IndexError from hasattr:", e)
try:
    r.summary = {}
except AttributeError as e:
    print("AttributeError:", e)
print(type(Report.summary).__name__, Report.summary.fset is None, Report.summary.fdel is not None)
