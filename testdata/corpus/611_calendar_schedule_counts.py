import calendar
from collections import Counter

meetings = {"standup": [0, 1, 2, 3, 4], "review": [3], "retro": [4]}
cal = calendar.Calendar(firstweekday=calendar.MONDAY)
count = Counter()
for d, wd in cal.itermonthdays2(2024, 5):
    if d == 0:
        continue
    for name, days in meetings.items():
        if wd in days:
            count[name] += 1
print(sorted(count.items()))

mondays = [d for d in cal.itermonthdates(2024, 9) if d.weekday() == calendar.MONDAY and d.month == 9]
print([str(d) for d in mondays])
print(calendar.Calendar(6).monthdayscalendar(2024, 9)[0])

year_rows = calendar.Calendar().yeardayscalendar(2025, width=4)
print(len(year_rows), len(year_rows[0]), year_rows[0][0][0])
counts = {calendar.month_name[m]: sum(calendar.weekday(2025, m, d) == 4 and d == 13
                                      for d in range(1, calendar.monthrange(2025, m)[1] + 1))
          for m in range(1, 13)}
print([m for m, c in counts.items() if c])
print(calendar.timegm((2024, 1, 1, 0, 0, 0)), calendar.timegm((2000, 2, 29, 12, 0, 0)))
print(calendar.weekheader(3))
print(calendar.firstweekday())
