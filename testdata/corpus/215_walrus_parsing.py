lines = [
    "temp=21.5",
    "# comment",
    "humidity=40",
    "",
    "pressure=1013.2",
    "bad line",
]

readings = {}
for line in lines:
    if (line := line.strip()) and not line.startswith("#"):
        if (idx := line.find("=")) > 0:
            readings[line[:idx]] = float(line[idx + 1:])
        else:
            print("skipping", repr(line))
print(readings)

values = [3, 8, 1, 9, 4]
if (top := max(values)) > 5:
    print("max is high:", top)
print([s for v in values if (s := v * v) % 2 == 0])
stream = iter(range(10))
batch = []
while (item := next(stream, None)) is not None and len(batch) < 4:
    batch.append(item)
print(batch, item)
