"""A running average kept by a generator that receives values with send()."""


def running_average():
    total = 0.0
    count = 0
    average = None
    while True:
        value = yield average
        if value is None:
            continue
        total += value
        count += 1
        average = total / count


avg = running_average()
print(next(avg))
for reading in [10, 20, 30, 5]:
    print(f"sent {reading:>3} -> average {avg.send(reading):.2f}")
print("peek without a value:", avg.send(None))


def running_stats():
    values = []
    summary = {}
    while True:
        value = yield summary
        values.append(value)
        summary = {"n": len(values), "min": min(values), "max": max(values), "last": value}


stats = running_stats()
stats.send(None)
for temp in [21.5, 19.0, 23.25]:
    result = stats.send(temp)
print(result)
stats.close()
try:
    stats.send(1)
except StopIteration:
    print("closed generator raises StopIteration on send")
