# Normalize timestamps in several ISO 8601 forms to UTC and sort them.
from datetime import datetime, timezone, timedelta

raw = [
    "2024-06-01T12:00:00+02:00",
    "2024-06-01T09:30:00Z",
    "2024-06-01 08:15:00.250000-04:00",
    "20240601T101500+0000",
    "2024-06-01T10:00",
]

parsed = []
for text in raw:
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)  # naive stamps are UTC by convention
    parsed.append((dt.astimezone(timezone.utc), text))

parsed.sort()
for utc, text in parsed:
    print(f"{utc.isoformat(timespec='seconds'):26} <- {text}")

first, last = parsed[0][0], parsed[-1][0]
print("span:", last - first)
print("repr:", repr(parsed[0][0]))
gaps = [b[0] - a[0] for a, b in zip(parsed, parsed[1:])]
print("largest gap:", max(gaps), "at index", gaps.index(max(gaps)))
print("all within 6h:", all(g < timedelta(hours=6) for g in gaps))
print(datetime(2024, 6, 1, 12, tzinfo=timezone(timedelta(hours=2))) == datetime(2024, 6, 1, 10, tzinfo=timezone.utc))
