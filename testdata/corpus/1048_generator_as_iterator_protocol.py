"""Generators implement the iterator protocol; compare with a hand-written iterator."""
import inspect
from collections.abc import Generator, Iterator, Iterable


class CountdownIter:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current + 1


def countdown_gen(start):
    while start > 0:
        yield start
        start -= 1


a, b = CountdownIter(3), countdown_gen(3)
print(list(a), list(b))
g = countdown_gen(2)
print(iter(g) is g, isinstance(g, Iterator), isinstance(g, Generator), isinstance(CountdownIter(1), Generator))
print(isinstance(countdown_gen, Iterable), callable(countdown_gen), type(g).__name__)
print(inspect.isgeneratorfunction(countdown_gen), inspect.isgenerator(g), inspect.isgenerator(CountdownIter(1)))
print(g.__next__(), next(g), next(g, None))
print(countdown_gen.__name__, g.__name__, g.__qualname__)
genexp = (x for x in [1])
print(type(genexp).__name__, genexp.__name__, inspect.isgenerator(genexp))
print(inspect.getgeneratorstate(countdown_gen(1)))
g = countdown_gen(1)
next(g)
print(inspect.getgeneratorstate(g))
list(g)
print(inspect.getgeneratorstate(g))
