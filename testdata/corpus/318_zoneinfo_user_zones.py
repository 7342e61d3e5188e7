# Validate user-supplied time zones, falling back to UTC for unknown ones.
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

users = [("ana", "America/Sao_Paulo"), ("ben", "Mars/Base_One"), ("chen", "Asia/Shanghai"),
         ("dev", "asia/kolkata"), ("eve", "Europe/Kyiv"), ("fay", "")]
when = datetime(2024, 2, 1, 15, 0, tzinfo=timezone.utc)

problems = {}
for name, key in users:
    try:
        zone = ZoneInfo(key)
    except ZoneInfoNotFoundError as e:
        problems[name] = f"unknown ({e})"
        zone = ZoneInfo("UTC")
    except ValueError as e:
        problems[name] = f"invalid ({e})"
        zone = ZoneInfo("UTC")
    local = when.astimezone(zone)
    print(f"{name:5} {str(zone):18} {local:%Y-%m-%d %H:%M} {local.utcoffset()}")

for name in sorted(problems):
    print(name, "->", problems[name])
print(isinstance(ZoneInfoNotFoundError("x"), KeyError))
