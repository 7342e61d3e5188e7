import itertools
import operator
import functools

lines = [
    {"desc": "consulting", "qty": 10, "unit": 150.0, "taxable": True},
    {"desc": "travel", "qty": 1, "unit": 420.0, "taxable": False},
    {"desc": "license", "qty": 3, "unit": 99.0, "taxable": True},
]
TAX = 0.2

amounts = list(map(operator.mul, map(operator.itemgetter("qty"), lines), map(operator.itemgetter("unit"), lines)))
print("line amounts:", amounts)
print("running:", list(itertools.accumulate(amounts, operator.add)))
subtotal = functools.reduce(operator.add, amounts, 0.0)
taxable = sum(itertools.compress(amounts, map(operator.itemgetter("taxable"), lines)))
tax = round(taxable * TAX, 2)
print(f"subtotal={subtotal:.2f} taxable={taxable:.2f} tax={tax:.2f} total={subtotal + tax:.2f}")

with_discount = functools.partial(round, ndigits=1)
print("rounded:", [with_discount(a * 0.97) for a in amounts])
apply_rate = functools.partial(operator.mul, 1 + TAX)
print("gross:", [round(apply_rate(a), 2) for a in amounts])
print("max line:", max(lines, key=operator.itemgetter("unit"))["desc"])
print(operator.truediv(7, 2), operator.floordiv(7, 2), operator.mod(-7, 3), operator.pow(2, 10), operator.neg(5))
print(operator.contains([1, 2], 2), operator.getitem("abc", 1), operator.eq(1, 1.0), operator.not_(0))
print(operator.methodcaller("upper")("abc"), operator.methodcaller("split", ",")("a,b"))
