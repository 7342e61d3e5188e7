# Handle ragged rows with DictReader's restkey and restval.
import csv

data = [
    "host,port,proto",
    "a.example,80,http",
    "b.example,443",
    "c.example,22,ssh,extra1,extra2",
    "",
    "d.example",
]
reader = csv.DictReader(data, restkey="overflow", restval="?")
print("fields:", reader.fieldnames)
for row in reader:
    print(row)

explicit = csv.DictReader(["x;1", "y;2"], fieldnames=["key", "value"], delimiter=";")
print([(r["key"], int(r["value"])) for r in explicit])
print(list(csv.DictReader([])))
