import statistics
from collections import namedtuple

Week = namedtuple("Week", "spend signups")
weeks = [Week(1200, 31), Week(1500, 40), Week(900, 22), Week(2000, 52), Week(1700, 41), Week(1100, 30)]

spend = [w.spend for w in weeks]
signups = [w.signups for w in weeks]
fit = statistics.linear_regression(spend, signups)
print(f"signups ~ {fit.slope:.4f} * spend + {fit.intercept:.2f}")
print("correlation:", round(statistics.correlation(spend, signups), 4))
print("covariance:", round(statistics.covariance(spend, signups), 2))
for budget in (1000, 2500):
    print(f"predicted at {budget}: {fit.slope * budget + fit.intercept:.1f}")
cost_per_signup = [w.spend / w.signups for w in weeks]
print("cost per signup: mean", round(statistics.mean(cost_per_signup), 2),
      "harmonic", round(statistics.harmonic_mean(cost_per_signup), 2),
      "geometric", round(statistics.geometric_mean(cost_per_signup), 2))
through_origin = statistics.linear_regression(spend, signups, proportional=True)
print("through origin:", round(through_origin.slope, 5), through_origin.intercept)
best = max(weeks, key=lambda w: w.signups / w.spend)
print("best week:", best, weeks.index(best))
try:
    statistics.correlation([1, 1, 1], [2, 3, 4])
except statistics.StatisticsError as e:
    print("StatisticsError:", e)
