import bisect
import itertools

weights_kg = [0.5, 1.2, 2.0, 4.8, 5.0, 9.9, 12.5, 30.0]
tier_limits = [1, 2, 5, 10, 20]
tier_prices = [4.99, 6.49, 8.99, 12.99, 19.99, 34.99]


def price(w):
    return tier_prices[bisect.bisect_left(tier_limits, w)]


charges = [price(w) for w in weights_kg]
for w, c in zip(weights_kg, charges):
    print(f"{w:5.1f} kg -> tier {bisect.bisect_left(tier_limits, w)} ${c}")

running = list(itertools.accumulate(charges))
print("running total:", [round(x, 2) for x in running])
budget = 40
print("parcels within $40:", bisect.bisect_right(running, budget))
print("max single:", list(itertools.accumulate(charges, max))[-1])
print("with opening fee:", [round(x, 2) for x in itertools.accumulate(charges[:3], initial=10)])
pairs = list(itertools.pairwise(tier_limits))
print("tier ranges:", pairs)
print("heavy groups:", [(k, len(list(g))) for k, g in itertools.groupby(weights_kg, key=lambda w: w >= 5)])
