"""Fixed-size sensor records: pack a batch, read it back, summarize."""
import struct
from statistics import mean

RECORD = struct.Struct("<HBxfd")  # sensor id, status, pad, reading, timestamp
print("record size:", RECORD.size, "format:", RECORD.format)

readings = [
    (101, 1, 21.5, 1700000000.25),
    (102, 0, -3.75, 1700000001.5),
    (101, 1, 22.125, 1700000002.75),
    (103, 2, 1e-3, 1700000003.0),
    (102, 1, 0.1, 1700000004.125),
]

blob = b"".join(RECORD.pack(*r) for r in readings)
print("blob length:", len(blob), "records:", len(blob) // RECORD.size)

decoded = list(RECORD.iter_unpack(blob))
for sensor, status, value, ts in decoded:
    print(f"sensor={sensor} status={status} value={value!r} ts={ts}")

# 'f' keeps about 7 digits: 0.1 comes back as the nearest float32.
lost = [(a[2], b[2]) for a, b in zip(readings, decoded) if a[2] != b[2]]
print("changed by float32:", lost)

by_sensor = {}
for sensor, status, value, ts in decoded:
    by_sensor.setdefault(sensor, []).append(value)
for sensor in sorted(by_sensor):
    values = by_sensor[sensor]
    print(sensor, len(values), round(mean(values), 4))

third = RECORD.unpack_from(blob, 2 * RECORD.size)
print("third record:", third)
print("last via negative offset:", RECORD.unpack_from(blob, -RECORD.size))
