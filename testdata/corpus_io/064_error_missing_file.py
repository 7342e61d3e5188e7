import csv

with open("data/sales_2027.csv") as f:
    print(list(csv.reader(f)))
