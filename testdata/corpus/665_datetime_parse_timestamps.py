# Normalising the timestamps of mixed log sources to UTC: ISO text with
# and without offsets, strptime formats, struct_time tuples, and the
# errors a bad line gives.
import time
from datetime import datetime, timezone, timedelta
from zoneinfo import ZoneInfo

raw = [
    ("api", "2024-03-10T01:59:59Z"),
    ("api", "2024-03-10T03:00:00.250-04:00"),
    ("api", "2024-03-10 14:07:09 +05:30"),
    ("api", "2024-W10-7T08:00"),
    ("web", "10/Mar/2024:06:25:24 +0000"),
    ("web", "10/Mar/2024:06:25:24 -0700"),
    ("cron", "Sun Mar 10 02:30:00 2024"),
    ("cron", "Sun Mar 10 2:30:00 2024"),
    ("db", "2024-02-30 10:00:00"),
    ("db", "2024-03-10T24:00:00"),
    ("db", "20240310T0230"),
]
formats = {"web": "%d/%b/%Y:%H:%M:%S %z", "cron": "%a %b %d %H:%M:%S %Y"}
ny = ZoneInfo("America/New_York")
for source, text in raw:
    try:
        if source in formats:
            dt = datetime.strptime(text, formats[source])
        else:
            dt = datetime.fromisoformat(text)
    except ValueError as e:
        print(f"{source:4} {text!r:34} rejected: {e}")
        continue
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=ny)
    utc = dt.astimezone(timezone.utc)
    print(f"{source:4} {text!r:34} -> {utc.isoformat()} ({dt.tzname()}, dst={dt.dst()}, fold={dt.fold})")

# struct_time round trips, as scripts built on the time module do
st = time.strptime("Sun Mar 10 02:30:00 2024")
print(st.tm_wday, st.tm_yday, st.tm_isdst, time.strftime("%Y-%m-%d %H:%M %a %j", st))
print(time.strptime("Mon 2024-03-10", "%a %Y-%m-%d").tm_wday, time.strptime("Feb 29", "%b %d")[:3])
print(time.strftime("%d %b %Y %a", (2024, 2, 31, 0, 0, 0, 0, 0, 0)), time.asctime((2024, 3, 10, 2, 30, 0, 6, 70, -1)))
print(time.mktime((2024, 13, 1, 0, 0, 0, 0, 0, 0)) - time.mktime((2025, 1, 1, 0, 0, 0, 0, 0, 0)))
for bad in [(2024, 13, 1, 0, 0, 0, 0, 1, 0), (2024, 1, 1, 0, 0, 0, 0, 367, 0)]:
    try:
        time.strftime("%Y", bad)
    except ValueError as e:
        print("strftime:", e)
try:
    datetime.strptime("10 10", "%d %d")
except Exception as e:
    print(type(e).__name__, e)
gap = datetime(2024, 3, 10, 2, 30, tzinfo=ny)
print(gap.utcoffset(), gap.tzname(), gap.dst(), gap == gap.astimezone(timezone.utc))
