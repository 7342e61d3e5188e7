LOG = """2024-05-01 10:00:01 INFO  server started on port 8080
2024-05-01 10:00:05 DEBUG loading config from /etc/app.yaml
2024-05-01 10:01:17 WARN  slow request GET /api/users took 1532ms
2024-05-01 10:02:44 ERROR database timeout after 30s
2024-05-01 10:02:45 INFO  retrying database connection
2024-05-01 10:03:00 ERROR database timeout after 30s
2024-05-01 10:05:12 WARN  slow request POST /api/orders took 2210ms
2024-05-01 10:06:00 INFO  shutdown requested"""

levels = {}
errors = {}
slow = []
for line in LOG.splitlines():
    date, time, level, message = line.split(maxsplit=3)
    levels[level] = levels.get(level, 0) + 1
    if level == "ERROR":
        errors[message] = errors.get(message, 0) + 1
    if message.startswith("slow request"):
        parts = message.split()
        method, path, ms = parts[2], parts[3], int(parts[-1].removesuffix("ms"))
        slow.append((ms, method, path, time))

print(levels)
for msg, n in errors.items():
    print(f"{n}x {msg}")
for ms, method, path, time in sorted(slow, reverse=True):
    print(f"{time} {method:<5}{path:<14}{ms:>6} ms")
first, last = LOG.splitlines()[0].split()[1], LOG.splitlines()[-1].split()[1]
print("window:", first, "-", last)
