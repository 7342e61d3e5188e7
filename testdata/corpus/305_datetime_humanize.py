# Humanize durations and ages the way a status page prints them.
from datetime import datetime, timedelta

NOW = datetime(2024, 4, 1, 12, 0, 0)

def humanize(delta):
    seconds = int(delta.total_seconds())
    future = seconds < 0
    seconds = abs(seconds)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds // size
            text = f"{n} {unit}{'s' if n != 1 else ''}"
            break
    else:
        text = "just now" if seconds < 10 else f"{seconds} seconds"
    if text == "just now":
        return text
    return f"in {text}" if future else f"{text} ago"

stamps = ["2024-04-01T11:59:55", "2024-04-01T11:15:00", "2024-03-31T09:00:00",
          "2024-03-01T12:00:00", "2024-04-02T13:30:00", "2024-04-01T11:59:00"]
for s in stamps:
    print(f"{s}  {humanize(NOW - datetime.fromisoformat(s))}")

d = timedelta(days=3, hours=4, minutes=5, seconds=6, microseconds=7)
print(d, repr(d), d.days, d.seconds, d.microseconds)
print(-d, abs(-d), d * 2, d / 4, d // timedelta(hours=1), d % timedelta(hours=1))
print(timedelta(minutes=90) > timedelta(hours=1), timedelta(0) == timedelta(), bool(timedelta()))
