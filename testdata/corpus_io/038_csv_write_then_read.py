import csv

rows = [{"name": "widget", "price": 2.5}, {"name": "gadget", "price": 10}, {"name": "a, b", "price": 0}]
with open("reports/prices.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["name", "price"])
    w.writeheader()
    w.writerows(rows)
with open("reports/prices.csv", newline="") as f:
    for rec in csv.reader(f):
        print(rec)
