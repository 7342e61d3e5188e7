import statistics
from statistics import StatisticsError

sensors = {
    "north": [20.1, 20.4, 19.8, 20.0, 20.3],
    "south": [22.0],
    "east": [],
    "west": [18.5, 18.5, 19.0, 30.2, 18.7, 18.5],
}

for name, values in sensors.items():
    try:
        mean = statistics.mean(values)
        spread = statistics.stdev(values)
        print(f"{name:<6} n={len(values)} mean={mean:.2f} stdev={spread:.3f} median={statistics.median(values)}")
    except StatisticsError as e:
        print(f"{name:<6} n={len(values)} cannot summarise: {e}")

west = sensors["west"]
print("mode:", statistics.mode(west), "multimode:", statistics.multimode([1, 1, 2, 2, 3]))
print("pstdev:", round(statistics.pstdev(west), 4), "variance:", round(statistics.variance(west), 4))
try:
    statistics.quantiles([1.0], n=4)
except StatisticsError as e:
    print("quantiles:", e)
try:
    statistics.variance([5])
except ValueError as e:
    print("caught as ValueError:", type(e).__name__, e)
print(statistics.mean([1, 2, 3, 4]), statistics.mean([1.5, 2.5]), statistics.median([3, 1, 2, 4]))
print(statistics.fmean([1, 2, 3], weights=[3, 1, 1]) if hasattr(statistics, "nope") else statistics.fmean([1, 2, 3]))
