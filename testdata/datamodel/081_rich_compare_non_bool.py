# Rich comparisons may return any object; `if`, `not` and sorting use its truth.
class Vec:
    def __init__(self, *xs):
        self.xs = xs

    def __eq__(self, other):
        return [a == b for a, b in zip(self.xs, other.xs)]

    def __lt__(self, other):
        return sum(self.xs) < sum(other.xs)


print(Vec(1, 2) == Vec(1, 3), Vec(1, 2) != Vec(1, 3))
print(bool(Vec(1) == Vec(2)), [v.xs for v in sorted([Vec(5), Vec(1, 1), Vec(0)])])
