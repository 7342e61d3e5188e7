from itertools import islice, count


def fibonacci():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def first_n(iterable, n):
    return list(islice(iterable, n))


print(first_n(fibonacci(), 12))
print(list(islice(fibonacci(), 10, 15)))
print(list(islice(fibonacci(), 0, 30, 7)))

# the first Fibonacci number with 20 digits, and its index
for index, value in zip(count(), fibonacci()):
    if len(str(value)) >= 20:
        print(f"F({index}) = {value}")
        break

evens = (f for f in fibonacci() if f % 2 == 0)
print([next(evens) for _ in range(6)])
gen = fibonacci()
print(next(gen), next(gen), next(gen), "then", sum(islice(gen, 5)))
