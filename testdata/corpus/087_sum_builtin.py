prices = [19.99, 5.01, 3.50, 0.25]
print(sum(prices))
print(sum(prices, 100))
print(sum([1, 2, 3], 10))
print(sum(range(101)))
print(sum(x * x for x in range(1, 11)))
print(sum([], 0), sum([]))
print(sum([[1, 2], [3], [4, 5]], []))
print(sum([True, True, False, True]))
print(sum([0.1] * 10))
print(sum(d["n"] for d in [{"n": 2}, {"n": 5}, {"n": -1}]))

def weighted_mean(values, weights):
    return sum(v * w for v, w in zip(values, weights)) / sum(weights)

print(weighted_mean([90, 80, 70], [3, 2, 1]))
print(round(weighted_mean([1.5, 2.5], [1, 1]), 2))
