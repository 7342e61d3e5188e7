"""Generating a meeting schedule with datetime, skipping weekends and holidays."""
from datetime import date, timedelta


class Calendar:
    def __init__(self, holidays=()):
        self.holidays = set(holidays)

    def is_workday(self, d):
        return d.weekday() < 5 and d not in self.holidays

    def next_workdays(self, start, n):
        out, d = [], start
        while len(out) < n:
            if self.is_workday(d):
                out.append(d)
            d += timedelta(days=1)
        return out


cal = Calendar([date(2024, 12, 25), date(2024, 12, 26), date(2025, 1, 1)])
days = cal.next_workdays(date(2024, 12, 20), 6)
print([d.isoformat() for d in days])
print([d.strftime("%a %d %b") for d in days])
by_month = {}
for d in days:
    by_month.setdefault(d.strftime("%Y-%m"), []).append(d.day)
print(by_month, (days[-1] - days[0]).days)
