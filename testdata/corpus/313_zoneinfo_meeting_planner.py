# Find the meeting hours that fall in everyone's working day.
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

team = {"Paris": "Europe/Paris", "New York": "America/New_York", "Tokyo": "Asia/Tokyo", "Bangalore": "Asia/Kolkata"}
day = datetime(2024, 9, 10, tzinfo=timezone.utc)

def working(local):
    return local.weekday() < 5 and 8 <= local.hour < 18

slots = []
for hour in range(24):
    utc = day + timedelta(hours=hour)
    locals_ = {city: utc.astimezone(ZoneInfo(key)) for city, key in team.items()}
    ok = [city for city, t in locals_.items() if working(t)]
    if len(ok) >= 3:
        slots.append((utc, ok))

for utc, ok in slots:
    print(f"{utc:%H:%M} UTC: {', '.join(sorted(ok))}")
best = slots[0][0]
for city, key in team.items():
    local = best.astimezone(ZoneInfo(key))
    print(f"{city:10} {local:%a %H:%M} {local.tzname():5} UTC{local:%z}")
print(ZoneInfo("Asia/Kolkata"), repr(ZoneInfo("Asia/Tokyo")))
