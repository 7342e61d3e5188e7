# Group sales by ISO week and weekday, as a weekly report.
from datetime import date, timedelta

sales = [
    ("2024-01-01", 120), ("2024-01-03", 80), ("2024-01-07", 45),
    ("2024-01-08", 200), ("2024-01-12", 30), ("2024-01-15", 99),
    ("2024-01-19", 61), ("2024-01-21", 17), ("2023-12-31", 5),
]

weeks = {}
by_weekday = {}
for stamp, amount in sales:
    d = date.fromisoformat(stamp)
    year, week, _ = d.isocalendar()
    weeks.setdefault((year, week), []).append(amount)
    name = d.strftime("%A")
    by_weekday[name] = by_weekday.get(name, 0) + amount

for (year, week), amounts in sorted(weeks.items()):
    monday = date.fromisocalendar(year, week, 1)
    sunday = monday + timedelta(days=6)
    print(f"{year}-W{week:02d} {monday:%b %d}..{sunday:%b %d}: {sum(amounts):4d} ({len(amounts)} sales)")

order = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
for name in order:
    if name in by_weekday:
        print(f"{name[:3]} {by_weekday[name]}")
best = max(weeks.items(), key=lambda kv: sum(kv[1]))
print("best week:", best[0], "weekday of first sale:", date(2024, 1, 1).weekday())
