# Print month calendars with the week numbers, and list the last Friday of each month.
from datetime import date, timedelta

def month_grid(year, month):
    first = date(year, month, 1)
    nxt = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    print(first.strftime("%B %Y").center(27))
    print("Wk Mo Tu We Th Fr Sa Su")
    d = first - timedelta(days=first.weekday())
    while d < nxt:
        week = [d + timedelta(days=i) for i in range(7)]
        cells = [f"{x.day:2d}" if x.month == month else "  " for x in week]
        print(f"{week[0].isocalendar()[1]:2d} " + " ".join(cells))
        d += timedelta(days=7)

month_grid(2024, 2)
month_grid(2024, 12)

def last_friday(year, month):
    nxt = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    d = nxt - timedelta(days=1)
    return d - timedelta(days=(d.weekday() - 4) % 7)

print([last_friday(2024, m).day for m in range(1, 13)])
print(date(2024, 12, 30).isocalendar(), date(2024, 12, 30).toordinal(), date.fromordinal(739250))
