import random

# Simulating task durations with gamma and beta distributions (seeded).
random.seed(2024)
durations = [random.gammavariate(2.0, 1.5) for _ in range(8)]
print([round(d, 4) for d in durations])
print(round(sum(durations) / len(durations), 6))

completion = [random.betavariate(2, 5) for _ in range(6)]
print([round(c, 5) for c in completion])

# PERT-like estimate: beta scaled to [optimistic, pessimistic].
opt, pess = 3.0, 12.0
estimates = sorted(opt + (pess - opt) * random.betavariate(2.5, 4) for _ in range(10))
print(estimates[0] < estimates[-1], round(estimates[5], 4))

# Angles from the von Mises distribution (wind directions).
angles = [random.vonmisesvariate(1.0, 4.0) for _ in range(5)]
print([round(a, 5) for a in angles])

small = [random.gammavariate(0.5, 2.0) for _ in range(4)]
print(small)
r = random.Random(11)
print(r.gammavariate(9, 0.5), r.betavariate(1, 1), r.vonmisesvariate(0, 0))
try:
    random.gammavariate(-1, 1)
except ValueError as e:
    print("ValueError:", e)
