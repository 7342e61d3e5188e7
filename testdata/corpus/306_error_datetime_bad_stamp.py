# Parse a CSV of readings; a malformed timestamp ends the program.
from datetime import datetime

rows = """\
2024-02-27 10:00,21.5
2024-02-28 10:00,22.0
2024-02-29 10:00,20.75
2024-02-30 10:00,19.0
"""

readings = []
for n, line in enumerate(rows.splitlines(), 1):
    stamp, value = line.split(",")
    try:
        when = datetime.strptime(stamp, "%Y-%m-%d %H:%M")
    except ValueError as e:
        print(f"line {n}: {e}")
        continue
    readings.append((when, float(value)))

print(len(readings), "readings,", "mean", sum(v for _, v in readings) / len(readings))
print("last:", readings[-1][0].strftime("%d %b %Y %H:%M"))
datetime.strptime("2024/03/01", "%Y-%m-%d")
