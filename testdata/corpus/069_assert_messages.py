def mean(values):
    assert len(values) > 0, "mean() of an empty list"
    return sum(values) / len(values)


def check_range(x, lo, hi):
    assert lo <= x <= hi, f"{x} not in [{lo}, {hi}]"
    return x


print(mean([1, 2, 3, 4]))
for args in [(5, 0, 10), (11, 0, 10), (-1, 0, 10)]:
    try:
        print("ok", check_range(*args))
    except AssertionError as e:
        print("AssertionError:", e)

try:
    mean([])
except AssertionError as e:
    print("caught:", e, e.args)

try:
    assert 1 + 1 == 3
except AssertionError as e:
    print("no message:", repr(str(e)), e.args)

assert isinstance(mean([2]), float), "mean returns a float"
print("asserts done")
