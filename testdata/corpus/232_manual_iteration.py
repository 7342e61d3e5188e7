def pairwise_sums(values):
    it = iter(values)
    sums = []
    while True:
        try:
            a = next(it)
            b = next(it)
        except StopIteration:
            break
        sums.append(a + b)
    return sums


print(pairwise_sums([1, 2, 3, 4, 5, 6]), pairwise_sums([1, 2, 3]), pairwise_sums([]))

words = iter("alpha beta gamma".split())
first = next(words)
rest = list(words)
print(first, rest)

try:
    next(iter({}))
except StopIteration:
    print("empty dict has no first key")

evens = filter(lambda n: n % 2 == 0, range(7))
print(next(evens), next(evens), list(evens), next(evens, "done"))
