# Flight schedule: local departure and arrival times to durations and UTC.
from datetime import datetime
from zoneinfo import ZoneInfo

flights = [
    ("AF006", "2024-07-01 10:30", "Europe/Paris", "2024-07-01 12:55", "America/New_York"),
    ("JL044", "2024-07-01 11:25", "Asia/Tokyo", "2024-07-01 16:15", "Europe/London"),
    ("QF1", "2024-12-20 16:00", "Australia/Sydney", "2024-12-21 05:25", "Europe/London"),
    ("UA900", "2024-03-09 22:00", "America/Los_Angeles", "2024-03-10 06:10", "America/New_York"),
]

def parse(text, key):
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=ZoneInfo(key))

for code, dep, dep_zone, arr, arr_zone in flights:
    d, a = parse(dep, dep_zone), parse(arr, arr_zone)
    duration = a - d
    hours, rest = divmod(int(duration.total_seconds()), 3600)
    print(f"{code:6} {d:%d %b %H:%M %Z} -> {a:%d %b %H:%M %Z}  {hours}h{rest // 60:02d}m")
    print(f"       UTC {d.astimezone(ZoneInfo('UTC')):%H:%M} -> {a.astimezone(ZoneInfo('UTC')):%H:%M}, offsets {d.utcoffset()} / {a.utcoffset()}")

longest = max(flights, key=lambda f: parse(f[3], f[4]) - parse(f[1], f[2]))
print("longest:", longest[0])
