"""Normalising a dict in place while looping over it, as reports often do."""

prices = {"apple": 1.2, "pear": 0.8, "plum": 2.5}
for name in prices:
    prices[name] = round(prices[name] * 1.1, 2)
print(prices)

stock = {"apple": 3, "pear": 0, "plum": 7}
for name in stock:
    if stock[name] == 0:
        stock[name] = "sold out"
print(stock)

totals = {"north": [3, 4], "south": [10], "east": []}
for region in totals:
    values = totals[region]
    totals[region] = sum(values) / len(values) if values else None
print(totals)

scores = {"ann": 71, "bob": 48, "cy": 90}
grades = {}
for name in scores:
    grades[name] = "pass" if scores[name] >= 50 else "fail"
print(grades)

try:
    for name in scores:
        scores[name.upper()] = scores[name]
except RuntimeError as err:
    print("RuntimeError:", err)

seen = {1, 2, 3}
try:
    for n in seen:
        seen.add(n * 10)
except RuntimeError as err:
    print("RuntimeError:", err)
print(sorted(seen))
