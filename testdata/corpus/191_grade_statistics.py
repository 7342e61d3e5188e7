import math
from typing import Dict, List

grades: Dict[str, List[int]] = {
    "ana": [88, 92, 79, 95],
    "ben": [72, 65, 80, 70],
    "chen": [95, 98, 100, 97],
    "dara": [60, 75, 58, 81],
}


def mean(xs: List[float]) -> float:
    return sum(xs) / len(xs)


def median(xs: List[float]) -> float:
    s = sorted(xs)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def stdev(xs: List[float]) -> float:
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def letter(avg: float) -> str:
    for cutoff, grade in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if avg >= cutoff:
            return grade
    return "F"


for student, scores in grades.items():
    avg = mean(scores)
    print(f"{student:<5} avg={avg:6.2f} median={median(scores):5.1f} sd={stdev(scores):5.2f} {letter(avg)}")
everyone = [s for scores in grades.values() for s in scores]
print(f"class: mean={mean(everyone):.2f} median={median(everyone)} sd={stdev(everyone):.3f}")
print("top student:", max(grades, key=lambda s: mean(grades[s])))
