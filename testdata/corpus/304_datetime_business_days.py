# Business-day arithmetic with a holiday list.
from datetime import date, timedelta

HOLIDAYS = {date(2024, 12, 25), date(2024, 12, 26), date(2025, 1, 1)}

def is_business_day(d):
    return d.weekday() < 5 and d not in HOLIDAYS

def add_business_days(start, n):
    d = start
    while n > 0:
        d += timedelta(days=1)
        if is_business_day(d):
            n -= 1
    return d

def business_days_between(a, b):
    count = 0
    d = a
    while d < b:
        if is_business_day(d):
            count += 1
        d += timedelta(days=1)
    return count

start = date(2024, 12, 20)
for n in (1, 3, 5, 10):
    print(f"{start} + {n:2d} business days = {add_business_days(start, n)} ({add_business_days(start, n):%a})")
print("between:", business_days_between(date(2024, 12, 1), date(2025, 1, 31)))
print("holidays on weekdays:", sorted(d.isoformat() for d in HOLIDAYS if d.weekday() < 5))
print("next Monday:", start + timedelta(days=(7 - start.weekday()) % 7 or 7))
