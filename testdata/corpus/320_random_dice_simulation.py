# Simulate dice rolls with a fixed seed and tabulate the outcomes.
import random
from collections import Counter

random.seed(12345)


def roll(n_dice: int, sides: int = 6) -> int:
    return sum(random.randint(1, sides) for _ in range(n_dice))


rolls = [roll(2) for _ in range(500)]
counts = Counter(rolls)
for total in range(2, 13):
    bar = "#" * (counts[total] // 5)
    print(f"{total:>2} {counts[total]:>3} {bar}")
print("most common:", counts.most_common(3))
mean = sum(rolls) / len(rolls)
print(f"mean={mean:.3f}")
assert 2 <= min(rolls) and max(rolls) <= 12
