"""A generator can be consumed only once; a re-iterable class can be reused."""


def squares(n):
    for i in range(n):
        yield i * i


gen = squares(5)
print(sum(gen), sum(gen))
gen = squares(4)
print(3 in gen, list(gen))
gen = squares(3)
print(list(gen), list(gen), next(gen, "empty"))


class Squares:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return squares(self.n)


sq = Squares(5)
print(sum(sq), sum(sq), max(sq), list(sq))

data = squares(6)
evens = [x for x in data if x % 2 == 0]
odds = [x for x in data if x % 2]
print(evens, odds)

data = list(squares(6))
print([x for x in data if x % 2 == 0], [x for x in data if x % 2])
it = squares(3)
print(iter(it) is it, hasattr(it, "__next__"), hasattr(data, "__next__"))
