import math


def running_stats(values):
    """Welford's online algorithm: yield (n, mean, stdev) after every value."""
    n = 0
    mean = 0.0
    m2 = 0.0
    for x in values:
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
        stdev = math.sqrt(m2 / (n - 1)) if n > 1 else 0.0
        yield n, mean, stdev


def anomalies(values, threshold=2.0, warmup=3):
    history = []
    for x in values:
        if len(history) >= warmup:
            _, mean, sd = list(running_stats(history))[-1]
            if sd and abs(x - mean) / sd > threshold:
                yield x, round((x - mean) / sd, 2)
        history.append(x)


latencies = [102, 98, 101, 99, 250, 100, 97, 103, 5, 101]
for n, mean, sd in running_stats(latencies[:5]):
    print(f"n={n} mean={mean:.2f} sd={sd:.2f}")
print(list(anomalies(latencies)))
*_, last = running_stats(latencies)
print(f"final n={last[0]} mean={last[1]:.1f} sd={last[2]:.3f}")
print(list(running_stats([])))
