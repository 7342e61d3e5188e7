"""A range-like class implementing only __len__ and __getitem__: iteration, in, reversed, slicing."""


class Evens:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("Evens index out of range")
        return 2 * i


e = Evens(6)
print(list(e), len(e), e[-1], e[1:4], e[::-2])
print(8 in e, 7 in e, list(reversed(e)), sum(e), sorted(e, reverse=True)[:2])
a, b, *rest = e
print(a, b, rest, [x * x for x in e if x > 4], dict(zip("abc", e)))
try:
    e[6]
except IndexError as err:
    print("IndexError:", err)
