import calendar

year, month = 2024, 2
first_wd, ndays = calendar.monthrange(year, month)
print(calendar.month_name[month], year, "starts on", calendar.day_name[first_wd], "with", ndays, "days")
print("leap:", calendar.isleap(year), "leap days 2000-2030:", calendar.leapdays(2000, 2030))

weeks = calendar.monthcalendar(year, month)
workdays = sum(1 for w in weeks for i, d in enumerate(w) if d and i < 5)
print("weeks:", len(weeks), "workdays:", workdays)
for w in weeks:
    print(" ".join(f"{d:2d}" if d else "  " for d in w))

print(calendar.TextCalendar(calendar.SUNDAY).formatmonth(2024, 3))
print(calendar.month(2023, 12))

paydays = []
for m in range(1, 13):
    last = calendar.monthrange(2024, m)[1]
    d = last
    while calendar.weekday(2024, m, d) >= 5:
        d -= 1
    paydays.append(f"{calendar.month_abbr[m]} {d}")
print(paydays)
print([calendar.day_abbr[i] for i in range(7)], list(calendar.month_abbr)[1:4])
