import calendar

print(calendar.calendar(2025, 2, 1, 6, 3))
weekend_days = 0
for m in range(1, 13):
    for week in calendar.monthcalendar(2025, m):
        weekend_days += sum(1 for d in week[5:] if d)
print("weekend days in 2025:", weekend_days)
print("days in 2025:", sum(calendar.monthrange(2025, m)[1] for m in range(1, 13)))
