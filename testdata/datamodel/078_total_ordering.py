# total_ordering derives <=, >, >= from __eq__ and one of __lt__/__le__/__gt__/
# __ge__; without any of them it is a ValueError.
from functools import total_ordering


@total_ordering
class V:
    def __init__(self, n):
        self.n = n

    def __eq__(self, o):
        return self.n == o.n

    def __gt__(self, o):
        return self.n > o.n


print(V(1) < V(2), V(2) <= V(2), V(3) >= V(4), V(3) > V(1), sorted(V(x) for x in [3, 1, 2])[0].n)
try:
    @total_ordering
    class Nothing:
        pass
except ValueError as e:
    print(type(e).__name__, e)
