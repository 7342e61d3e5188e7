from itertools import cycle, islice, chain, zip_longest


def roundrobin(*iterables):
    """roundrobin('ABC', 'D', 'EF') --> A D E B F C"""
    iterators = cycle(iter(it) for it in iterables)
    active = len(iterables)
    while active:
        try:
            for it in iterators:
                yield next(it)
        except StopIteration:
            active -= 1
            iterators = cycle(islice(iterators, active))


def interleave_longest(*iterables, skip=None):
    for group in zip_longest(*iterables, fillvalue=skip):
        yield from (x for x in group if x is not skip)


print("".join(roundrobin("ABC", "D", "EF")))
queues = {"high": ["h1", "h2", "h3"], "normal": ["n1"], "low": ["l1", "l2"]}
print(list(roundrobin(*queues.values())))
print(list(interleave_longest([1, 2, 3], [10], [100, 200])))
print(list(islice(roundrobin(cycle("xy"), "123"), 8)))
print(list(chain.from_iterable(zip("abc", "123"))))
print(list(roundrobin()))
