def make_counter(start=0):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count

    def reset():
        nonlocal count
        count = start

    return increment, reset


inc, reset = make_counter(10)
print(inc(), inc(), inc(5))
reset()
print(inc())


def running_stats():
    total = 0
    n = 0

    def add(x):
        nonlocal total, n
        total += x
        n += 1
        return total / n

    return add


avg = running_stats()
print([avg(x) for x in [10, 20, 30, 40]])
