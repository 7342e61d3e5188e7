# Describe Unix timestamps from a metrics export with time.gmtime and strftime.
import time

stamps = [0, 86399, 951782400, 1700000000, 1709251199]
for ts in stamps:
    t = time.gmtime(ts)
    print(f"{ts:>11} {time.strftime('%Y-%m-%d %H:%M:%S', t)} "
          f"wday={t.tm_wday} yday={t.tm_yday:3d} {time.strftime('%a %b %d', t)}")

t = time.gmtime(1700000000)
print(t)
print(t[0], t[1], t[2], tuple(t)[:3] == (t.tm_year, t.tm_mon, t.tm_mday), len(t))
print(time.asctime(t))
print(time.strftime("%j %U %W %y %p %I", t))
leap_days = [ts for ts in stamps if time.gmtime(ts).tm_mon == 2 and time.gmtime(ts).tm_mday == 29]
print("on Feb 29:", leap_days)
