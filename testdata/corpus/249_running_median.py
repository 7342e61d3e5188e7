import heapq
import statistics

stream = [5, 15, 1, 3, 8, 7, 9, 10, 20, 2]
low, high = [], []  # low is a max-heap by negation
for i, x in enumerate(stream, 1):
    if not low or x <= -low[0]:
        heapq.heappush(low, -x)
    else:
        heapq.heappush(high, x)
    if len(low) > len(high) + 1:
        heapq.heappush(high, -heapq.heappop(low))
    elif len(high) > len(low):
        heapq.heappush(low, -heapq.heappop(high))
    med = -low[0] if len(low) > len(high) else (-low[0] + high[0]) / 2
    check = statistics.median(stream[:i])
    print(f"after {i:2d}: median={med} check={check} {'ok' if med == check else 'MISMATCH'}")

print("mean", statistics.mean(stream), "variance", round(statistics.variance(stream), 3))
print("pvariance", statistics.pvariance(stream), "fmean", statistics.fmean(stream))
print("quantiles", statistics.quantiles(stream, n=5), statistics.quantiles(stream, n=4, method="inclusive"))
smallest = heapq.nsmallest(3, stream)
print("three smallest", smallest, "their mean", statistics.mean(smallest))
