# Read a log held in memory line by line, as if from a file.
import io

log = io.StringIO("""INFO start
WARN disk 81%
INFO request ok
ERROR timeout talking to db
INFO request ok
ERROR timeout talking to cache
""")

first = log.readline()
print("first:", first.strip())
counts = {}
errors = []
for line in log:
    level, _, msg = line.rstrip("\n").partition(" ")
    counts[level] = counts.get(level, 0) + 1
    if level == "ERROR":
        errors.append(msg)
print(counts)
print(errors)
print("at end:", repr(log.readline()), repr(log.read()))
log.seek(0)
print(len(log.readlines()), "lines in total")
