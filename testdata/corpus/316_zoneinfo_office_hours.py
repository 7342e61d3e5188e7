# Which offices are open at given instants (UTC)?
from datetime import datetime, time, timezone
from zoneinfo import ZoneInfo

offices = {
    "London": ("Europe/London", time(9), time(17, 30)),
    "Berlin": ("Europe/Berlin", time(8), time(17)),
    "Chicago": ("America/Chicago", time(8, 30), time(17)),
    "Singapore": ("Asia/Singapore", time(9), time(18)),
}

instants = ["2024-01-15T08:00:00+00:00", "2024-01-15T14:45:00+00:00", "2024-07-15T07:30:00+00:00", "2024-07-13T12:00:00+00:00"]
for text in instants:
    utc = datetime.fromisoformat(text)
    open_now = []
    for name, (key, opens, closes) in sorted(offices.items()):
        local = utc.astimezone(ZoneInfo(key))
        if local.weekday() < 5 and opens <= local.time() < closes:
            open_now.append(f"{name} ({local:%H:%M})")
    print(f"{utc:%a %d %b %H:%M} UTC: {', '.join(open_now) or 'all closed'}")

summer = datetime(2024, 7, 1, 12, tzinfo=ZoneInfo("Europe/London"))
winter = datetime(2024, 1, 1, 12, tzinfo=ZoneInfo("Europe/London"))
print(summer.tzname(), summer.dst(), winter.tzname(), winter.dst())
print(summer.astimezone(timezone.utc).time(), winter.astimezone(timezone.utc).time())
