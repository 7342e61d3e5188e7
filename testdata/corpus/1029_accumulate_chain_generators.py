from itertools import accumulate, chain, repeat, starmap, compress
import operator


def deposits():
    yield from [100, 250, 75]


def withdrawals():
    for amount in [40, 300, 20]:
        yield -amount


ledger = list(chain(deposits(), withdrawals(), [15]))
print(ledger)
balances = list(accumulate(ledger))
print(balances)
print("lowest balance:", min(accumulate(chain(deposits(), withdrawals()))))
print(list(accumulate([3, 1, 4, 1, 5, 9, 2, 6], max)))
print(list(accumulate(range(1, 6), operator.mul, initial=1)))

monthly = chain.from_iterable(repeat([1, 2, 3], 2))
print(list(monthly))
rates = [(1000, 1.05), (200, 1.10), (50, 0.5)]
print([round(v, 2) for v in starmap(operator.mul, rates)])
flags = (b > 0 for b in balances)
print(list(compress(ledger, flags)))
names = chain.from_iterable(line.split() for line in ["ann bob", "", "cy"])
print(list(names))
