# Read syslog-style lines with time.strptime and count messages per hour.
import time

lines = [
    "Mar  3 07:12:01 web1 sshd: accepted key",
    "Mar  3 07:45:19 web1 cron: job started",
    "Mar  3 08:00:00 web2 sshd: accepted key",
    "Mar 14 23:59:59 web2 kernel: disk warning",
    "Apr  1 00:00:01 web1 cron: job started",
]

per_hour = {}
for line in lines:
    stamp = line[:15]
    t = time.strptime("2024 " + stamp, "%Y %b %d %H:%M:%S")
    key = f"{t.tm_mon:02d}-{t.tm_mday:02d} {t.tm_hour:02d}h"
    per_hour[key] = per_hour.get(key, 0) + 1
    host, rest = line[16:].split(" ", 1)
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S', t)} yday={t.tm_yday} wday={t.tm_wday} {host} {rest.split(':')[0]}")

for key in sorted(per_hour):
    print(key, "#" * per_hour[key])
try:
    time.strptime("Feb 30 10:00:00", "%b %d %H:%M:%S")
except ValueError as e:
    print("bad:", e)
