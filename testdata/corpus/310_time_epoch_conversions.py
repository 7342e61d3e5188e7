# Convert between epoch seconds, struct_time and datetime for an API that mixes them.
import time
from datetime import datetime, timezone

records = [{"id": 1, "ts": 1609459200}, {"id": 2, "ts": 1614556800.5}, {"id": 3, "ts": 1700000000}]
for r in records:
    t = time.gmtime(r["ts"])
    dt = datetime.fromtimestamp(r["ts"], tz=timezone.utc)
    print(r["id"], time.strftime("%Y-%m-%dT%H:%M:%SZ", t), dt.isoformat(), dt.timestamp() == r["ts"])

back = datetime(2021, 3, 1, tzinfo=timezone.utc).timestamp()
print("round trip:", back, int(back) == 1614556800)
t = time.strptime("2021-03-01 12:30:00", "%Y-%m-%d %H:%M:%S")
print(t.tm_hour, t.tm_min, t.tm_isdst)
print(datetime(*t[:6]))
midnights = [r["ts"] - r["ts"] % 86400 for r in records]
print([time.strftime("%d.%m.%Y", time.gmtime(m)) for m in midnights])
print(time.gmtime(2**31 - 1).tm_year)
