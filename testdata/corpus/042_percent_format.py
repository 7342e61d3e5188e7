name = "disk0"
used = 73.4567
total_gb = 512

print("%s is %.1f%% full" % (name, used))
print("%d GB total, %5.2f GB used" % (total_gb, total_gb * used / 100))
print("%-10s|%10s|" % ("left", "right"))
print("%05d %+d %x %X %o %e" % (42, 42, 255, 255, 8, 12345.678))
print("%c%c" % (72, "i"))
print("%r vs %s" % ("quoted", "plain"))
print("%.3s" % "truncated")
print("%*d|%-*d|" % (6, 42, 6, 42))
print("%(user)s logged in %(n)d times" % {"user": "root", "n": 3})
print("single: %s" % "only")
print("tuple as value: %s" % ((1, 2),))
print("%i %u" % (3.9, 7))
print("%g %g %g" % (0.0001, 1234567.0, 1e-10))
print("%#x %#o %08.3f" % (255, 8, -3.14159))

rows = [("cpu", 93.5), ("mem", 41.25), ("swap", 0.0)]
for label, pct in rows:
    bar = "#" * int(pct / 10)
    print("%-5s %6.2f%% [%-10s]" % (label, pct, bar))
