# Pick servers by weight for a load-balancing simulation.
import random

servers = ["alpha", "beta", "gamma", "delta"]
weights = [50, 25, 15, 10]

random.seed("load-test")
picks = random.choices(servers, weights=weights, k=200)
tally = {s: picks.count(s) for s in servers}
for server, n in sorted(tally.items(), key=lambda kv: -kv[1]):
    print(f"{server:<6} {n:>4} {n / len(picks):.1%}")

cumulative = random.choices(servers, cum_weights=[50, 75, 90, 100], k=8)
print("cum_weights picks:", cumulative)

uniform_picks = random.choices("ABCD", k=12)
print("uniform:", "".join(uniform_picks))

counts = random.sample(["red", "blue", "green"], counts=[3, 2, 1], k=4)
print("sample with counts:", counts)
