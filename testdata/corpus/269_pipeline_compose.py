import functools
import operator


def compose(*fns):
    return functools.reduce(lambda f, g: lambda x: g(f(x)), fns, lambda x: x)


strip = operator.methodcaller("strip")
lower = operator.methodcaller("lower")
dash = functools.partial(str.replace, old=" ", new="-") if False else (lambda s: s.replace(" ", "-"))
slugify = compose(strip, lower, dash)
print([slugify(t) for t in ["  Hello World ", "Release Notes 2024", "ALL CAPS"]])

scale = functools.partial(operator.mul, 3)
add_tax = functools.partial(round, ndigits=2)
price = compose(scale, lambda x: x * 1.2, add_tax)
print(price(9.99), price(0))

counts = [("b", 2), ("a", 2), ("c", 5)]


def by_count_desc_then_name(x, y):
    if x[1] != y[1]:
        return y[1] - x[1]
    return -1 if x[0] < y[0] else (1 if x[0] > y[0] else 0)


print(sorted(counts, key=functools.cmp_to_key(by_count_desc_then_name)))
print(functools.reduce(operator.or_, [{1}, {2}, {1, 3}]), functools.reduce(max, [3, 9, 2]))
try:
    functools.reduce(operator.add, [])
except TypeError as e:
    print("TypeError:", e)
nested = {"a": {"b": {"c": 42}}}
print(functools.reduce(operator.getitem, ["a", "b", "c"], nested))
p = functools.partial(int, base=2)
print(p("1010"), p("11", base=10), p.keywords)
