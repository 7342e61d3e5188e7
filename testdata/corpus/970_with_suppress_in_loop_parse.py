"""Parsing mixed records, skipping bad ones with contextlib.suppress and counting them."""
from contextlib import suppress
from dataclasses import dataclass


@dataclass
class Reading:
    sensor: str
    value: float


RAW = ["t1=21.5", "t2=abc", "garbage", "t3=19", "=4", "t1=22.0"]
readings, skipped = [], 0
for line in RAW:
    before = len(readings)
    with suppress(ValueError):
        name, value = line.split("=")
        if not name:
            raise ValueError("empty name")
        readings.append(Reading(name, float(value)))
    skipped += len(readings) == before
print(readings)
print("skipped", skipped)
by_sensor = {}
for r in readings:
    by_sensor.setdefault(r.sensor, []).append(r.value)
print({k: sum(v) / len(v) for k, v in sorted(by_sensor.items())})
