import math

print(0.1 + 0.2 == 0.3, math.isclose(0.1 + 0.2, 0.3))
print(math.isclose(1000.0, 1000.1, rel_tol=1e-3), math.isclose(1000.0, 1001, rel_tol=1e-4))
print(math.isclose(0.0, 1e-12), math.isclose(0.0, 1e-12, abs_tol=1e-9))


def solve_quadratic(a: float, b: float, c: float):
    disc = b * b - 4 * a * c
    if disc < 0:
        return ()
    if math.isclose(disc, 0.0, abs_tol=1e-12):
        return (-b / (2 * a),)
    root = math.sqrt(disc)
    return tuple(sorted(((-b - root) / (2 * a), (-b + root) / (2 * a))))


for coeffs in [(1, -3, 2), (1, 2, 1), (1, 0, 1), (2, -4, -6), (1, 0, -2)]:
    print(coeffs, solve_quadratic(*coeffs))
print(math.comb(5, 2), math.perm(5, 2), math.prod([1, 2, 3, 4]))
