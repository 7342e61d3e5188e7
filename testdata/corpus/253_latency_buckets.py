from bisect import bisect_left, bisect_right
import statistics

latencies_ms = sorted([12, 45, 7, 230, 88, 19, 33, 41, 150, 9, 61, 27, 500, 18, 74])
n = len(latencies_ms)


def count_between(lo, hi):
    return bisect_right(latencies_ms, hi) - bisect_left(latencies_ms, lo)


edges = [0, 25, 50, 100, 250, 1000]
for lo, hi in zip(edges, edges[1:]):
    c = count_between(lo, hi - 1)
    print(f"{lo:>4}-{hi - 1:<4} {c:2d} {'*' * c}")


def percentile(p):
    return latencies_ms[min(n - 1, int(p / 100 * n))]


print("p50/p90/p99:", percentile(50), percentile(90), percentile(99))
print("median:", statistics.median(latencies_ms), "mean:", round(statistics.mean(latencies_ms), 2))
print("deciles:", statistics.quantiles(latencies_ms, n=10))
slo = 100
within = bisect_right(latencies_ms, slo)
print(f"within SLO: {within}/{n} = {within / n:.0%}")
print("harmonic-ish check:", round(statistics.fmean([1 / x for x in latencies_ms]), 5))
print("outliers:", latencies_ms[bisect_left(latencies_ms, statistics.mean(latencies_ms) + 2 * statistics.stdev(latencies_ms)) :])
