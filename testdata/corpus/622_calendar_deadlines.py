import calendar
import datetime

def add_business_days(start, n):
    d = start
    while n > 0:
        d += datetime.timedelta(days=1)
        if calendar.weekday(d.year, d.month, d.day) < 5:
            n -= 1
    return d


start = datetime.date(2024, 12, 20)
for n in (1, 5, 10):
    due = add_business_days(start, n)
    print(n, due.isoformat(), calendar.day_name[due.weekday()])


def last_weekday_of_month(year, month, wd):
    last = calendar.monthrange(year, month)[1]
    for day in range(last, last - 7, -1):
        if calendar.weekday(year, month, day) == wd:
            return day


print([last_weekday_of_month(2024, m, calendar.FRIDAY) for m in range(1, 13)])
print([y for y in range(1996, 2030) if calendar.isleap(y)])
try:
    calendar.monthrange(2024, 13)
except calendar.IllegalMonthError as e:
    print("error:", e)
