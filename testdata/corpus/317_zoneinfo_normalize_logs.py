# Merge logs written in different zones into one timeline in the team's zone.
from datetime import datetime
from zoneinfo import ZoneInfo

HOME = ZoneInfo("America/Denver")
sources = {
    "api (Europe/Dublin)": ("Europe/Dublin", ["2024-11-03 07:55:00 deploy", "2024-11-03 08:20:00 error spike"]),
    "db (Asia/Singapore)": ("Asia/Singapore", ["2024-11-03 15:58:00 failover", "2024-11-03 16:40:00 recovered"]),
    "cdn (UTC)": ("UTC", ["2024-11-03 08:05:00 cache purge"]),
}

timeline = []
for source, (key, lines) in sources.items():
    for line in lines:
        stamp, event = line[:19], line[20:]
        local = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo(key))
        timeline.append((local.astimezone(HOME), event, source))

timeline.sort(key=lambda e: e[0])
for when, event, source in timeline:
    print(f"{when:%Y-%m-%d %H:%M %Z} fold={when.fold} {event:14} <- {source}")
first, last = timeline[0][0], timeline[-1][0]
print("incident length:", last - first)
print("same instant:", datetime(2024, 11, 3, 1, 30, tzinfo=HOME) == datetime(2024, 11, 3, 1, 30, fold=1, tzinfo=HOME))
print(datetime(2024, 11, 3, 1, 30, tzinfo=HOME).utcoffset(), datetime(2024, 11, 3, 1, 30, fold=1, tzinfo=HOME).utcoffset())
