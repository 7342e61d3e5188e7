# Mistakes agents make with dates, and the messages they read back.
from datetime import date, datetime, time, timedelta, timezone
import calendar

due = date(2024, 3, 15)
attempts = [
    ("concat", lambda: "Due: " + due),
    ("len", lambda: len(datetime(2024, 1, 1))),
    ("index", lambda: timedelta(days=2)[0]),
    ("compare", lambda: timedelta(hours=1) < 5),
    ("sort", lambda: sorted([due, "2024-01-01"])),
    ("negate", lambda: -due),
    ("call", lambda: due()),
    ("list+", lambda: [1] + time(9)),
    ("kwarg", lambda: due.replace(mnth=4)),
    ("arity", lambda: datetime(2024, 1, 1).toordinal(1)),
    ("tz", lambda: datetime(2024, 1, 1).astimezone("UTC")),
    ("isoweek", lambda: date.fromisocalendar(2024, 1, 8)),
    ("month", lambda: calendar.month_name[13]),
]
for label, attempt in attempts:
    try:
        print(label, "->", attempt())
    except (TypeError, ValueError, IndexError) as e:
        print(f"{label} -> {type(e).__name__}: {e}")

print("Due: " + str(due), f"Due: {due:%d %b}")
print(type(due).__name__, due.__class__.__name__, datetime.now().__class__ is datetime)

# isocalendar() is a tuple: unpack it, compare it, format it.
week = due.isocalendar()
year, num, day = week
print(week == (2024, 11, 5), 11 in week, week[1], "%d-W%02d-%d" % week, week.count(5))
print("March" in calendar.month_name, list(calendar.month_abbr).index("Mar"), "Fri" in calendar.day_abbr)
