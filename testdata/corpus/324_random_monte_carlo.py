# Monte Carlo estimates with a seeded generator.
import random
import math

random.seed(2023)

inside = 0
trials = 4000
for _ in range(trials):
    x, y = random.random(), random.random()
    if x * x + y * y <= 1.0:
        inside += 1
pi_est = 4 * inside / trials
print(f"pi ~ {pi_est:.4f} (error {abs(pi_est - math.pi):.4f})")

# Expected waiting time with exponential arrivals.
waits = [random.expovariate(1 / 5) for _ in range(1000)]
print(f"mean wait {sum(waits) / len(waits):.3f}")

# Uniform and triangular samples for a cost estimate.
costs = [random.uniform(100, 200) + random.triangular(0, 50, 10) for _ in range(500)]
print(f"cost range {min(costs):.2f} .. {max(costs):.2f}")
print(f"p90 cost {sorted(costs)[int(0.9 * len(costs))]:.2f}")
print(round(random.normalvariate(0, 1), 10))
