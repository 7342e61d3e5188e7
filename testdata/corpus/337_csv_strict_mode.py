# Strict CSV parsing: a stray character after a closing quote is an error.
import csv

good = list(csv.reader(['a,"b",c'], strict=True))
print(good)
for bad in ['"unterminated', 'x,"y"z']:
    try:
        print(list(csv.reader([bad], strict=True)))
    except csv.Error as e:
        print("caught:", e)
    print("lenient:", list(csv.reader([bad])))
try:
    list(csv.reader(["a,b\nc,d"]))
except csv.Error as e:
    print("caught:", e)
print(list(csv.reader("a,b\nc,d".splitlines())))
