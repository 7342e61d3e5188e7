from typing import List


def average(xs: List[float]) -> float:
    return sum(xs) / len(xs)


def report(groups):
    for name, xs in groups.items():
        print(f"{name}: {average(xs):.2f}")


report({
    "north": [3.0, 4.5, 5.25],
    "south": [10.0],
    "east": [],
    "west": [1.0, 2.0],
})
