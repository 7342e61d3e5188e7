from math import sqrt, floor, ceil, pi as PI
from math import gcd


def distance(p, q):
    return sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)


points = [(0, 0), (3, 4), (-1, 1), (6, 8)]
for p in points[1:]:
    print(p, f"{distance(points[0], p):.3f}")

print(floor(PI * 100) / 100, ceil(PI), round(PI, 4))


def simplify(num: int, den: int) -> str:
    g = gcd(num, den)
    return f"{num // g}/{den // g}"


print(simplify(12, 18), simplify(100, 25), simplify(7, 13))

def pages_needed(items: int, per_page: int) -> int:
    return ceil(items / per_page)

print([pages_needed(n, 10) for n in (0, 1, 10, 11, 95)])
