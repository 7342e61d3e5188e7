from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

meeting = datetime(2024, 6, 1, 15, 0, tzinfo=timezone.utc)
offices = ["Europe/Paris", "America/New_York", "Asia/Tokyo", "Mars/Olympus_Mons"]
for key in offices[:3]:
    local = meeting.astimezone(ZoneInfo(key))
    print(f"{key:<18} {local:%Y-%m-%d %H:%M %Z}")
try:
    ZoneInfo(offices[3])
except ZoneInfoNotFoundError as e:
    print("skipping:", e)
print(datetime.fromisocalendar(2024, 22, 6).date(), meeting.isocalendar())
ZoneInfo(offices[3])
