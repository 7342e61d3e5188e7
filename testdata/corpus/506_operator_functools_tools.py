import functools
import operator

# Operators as functions, as agents use them with reduce, map and sorted.
flags = [True, False, True, True]
print(functools.reduce(operator.add, flags), functools.reduce(operator.and_, flags), functools.reduce(operator.or_, flags))
print(operator.add(1, True), operator.mul(True, 5), operator.neg(True), operator.inv(5))

rows = [{"name": "b", "score": 3}, {"name": "a", "score": 3}, {"name": "c", "score": 1}]
key = operator.itemgetter("score", "name")
print(key, sorted(rows, key=key)[0])
print(operator.attrgetter("real"), operator.methodcaller("split", ",", maxsplit=1))

totals = [0, 0]
operator.setitem(totals, 1, 7)
operator.iadd(totals, [9])
print(totals, operator.length_hint(totals))
d = {"a": 1, "b": 2}
operator.delitem(d, "a")
print(d, operator.iadd(3, 4), operator.iconcat("ab", "cd"))


def slow_square(n):
    return n * n


slow_square = functools.lru_cache(maxsize=32, typed=True)(slow_square)
print([slow_square(i % 4) for i in range(10)], slow_square(2.0))
print(slow_square.cache_info(), slow_square.cache_parameters())
