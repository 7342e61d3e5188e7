import statistics
from statistics import NormalDist

# Exam scores: fit a normal distribution and answer questions about it.
scores = [72, 85, 90, 66, 78, 88, 95, 70, 81, 77, 84, 69, 91, 74, 80]
dist = NormalDist.from_samples(scores)
print(dist)
print(round(dist.mean, 4), round(dist.stdev, 4))

for cutoff in (70, 80, 90):
    print(f"P(score < {cutoff}) = {dist.cdf(cutoff):.4f}")
print("top 10% from", round(dist.inv_cdf(0.9), 2))
print("quartiles", [round(q, 3) for q in dist.quantiles()])
print("z of 95:", round(dist.zscore(95), 4))

# IQ-style scale and a 95% interval.
iq = NormalDist(100, 15)
lo, hi = iq.inv_cdf(0.025), iq.inv_cdf(0.975)
print(f"95% of IQs lie in [{lo:.2f}, {hi:.2f}]")
print(iq.cdf(130) - iq.cdf(70))
print(NormalDist().inv_cdf(0.975), NormalDist().pdf(0))

# Two production lines: how much do their outputs overlap?
a = NormalDist(2.4, 1.6)
b = NormalDist(3.2, 2.0)
print(round(a.overlap(b), 6))
print(a + b, a - b, a * 2, a + 1)

print(statistics.median_grouped([1, 2, 2, 3, 4, 4, 4, 4, 4, 5]))
print(statistics.median_grouped([52, 52, 53, 54], interval=2))
try:
    NormalDist(0, -1)
except statistics.StatisticsError as e:
    print("StatisticsError:", e)
print(len(NormalDist(0, 1).samples(5, seed=7)), NormalDist(0, 1).samples(2, seed=7))
