# Pair login/logout lines per user and report session lengths.
from datetime import datetime, timedelta

LOG = """\
2024-05-02 08:58:13 alice login
2024-05-02 09:02:40 bob login
2024-05-02 11:30:05 alice logout
2024-05-02 12:00:00 carol login
2024-05-02 17:45:59 bob logout
2024-05-03 00:15:00 carol logout
"""

open_sessions = {}
durations = {}
for line in LOG.splitlines():
    day, clock, user, action = line.split()
    when = datetime.strptime(f"{day} {clock}", "%Y-%m-%d %H:%M:%S")
    if action == "login":
        open_sessions[user] = when
    else:
        durations[user] = when - open_sessions.pop(user)

for user, took in sorted(durations.items(), key=lambda kv: kv[1], reverse=True):
    hours = took.total_seconds() / 3600
    print(f"{user:6} {str(took):>10} {hours:6.2f} h")

total = sum(durations.values(), timedelta())
print("total:", total, "| average:", total / len(durations))
print("longest:", max(durations, key=durations.get))
print("crossed midnight:", [u for u, t in durations.items() if t > timedelta(hours=12)])
