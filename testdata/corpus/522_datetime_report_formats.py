from datetime import date, datetime, timedelta

# Report headers in several house styles.
start = datetime(2024, 3, 5, 7, 8, 9)
for fmt in ["%-d %B %Y", "%e %b %Y", "%10Y|%5d|%-5d|%_5H", "%^a %^b", "%C%y %G-W%V-%u", "%Ey/%Om/%Od", "%I:%M %p (%H:%M)", "%%Y literal", "%3f stays"]:
    print(f"{fmt!r:<24} -> {start.strftime(fmt)!r}")

# Weeks by ISO calendar.
for week in (1, 10, 52):
    monday = datetime.fromisocalendar(2024, week, 1)
    sunday = date.fromisocalendar(2024, week, 7)
    print(week, monday.date(), sunday, (sunday - monday.date()).days, monday.strftime("%G-W%V"))

for y in (5, 99, 1999, 2024):
    print(date(y, 6, 1).strftime("%C|%Y|%y|%G"))
span = timedelta(days=3, hours=4, minutes=5)
print(f"{span}", f"{start + span:%a %d %b %H:%M}")
