# Find the daylight-saving transitions of 2024 in a few zones by stepping hourly in UTC.
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

def transitions(key, year):
    zone = ZoneInfo(key)
    t = datetime(year, 1, 1, tzinfo=timezone.utc)
    end = datetime(year + 1, 1, 1, tzinfo=timezone.utc)
    prev = t.astimezone(zone).utcoffset()
    found = []
    while t < end:
        t += timedelta(hours=1)
        off = t.astimezone(zone).utcoffset()
        if off != prev:
            found.append((t, prev, off))
            prev = off
    return found

for key in ["Europe/Paris", "America/New_York", "Australia/Sydney", "Asia/Tokyo"]:
    found = transitions(key, 2024)
    print(key, len(found))
    for when, before, after in found:
        local = when.astimezone(ZoneInfo(key))
        direction = "forward" if after > before else "back"
        print(f"  {when:%Y-%m-%d %H:%M} UTC -> {local:%H:%M %Z}, clocks {direction} {abs(after - before)}")
