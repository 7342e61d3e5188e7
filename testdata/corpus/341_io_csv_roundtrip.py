# Round-trip rows through an in-memory CSV file.
import csv
import io

rows = [["city", "temp_c"], ["Oslo", "-3.5"], ["Lagos", "31"], ["Lima, Peru", "19"]]
f = io.StringIO()
csv.writer(f).writerows(rows)
print(repr(f.getvalue()))

f.seek(0)
back = list(csv.reader(f))
print(back == rows)
f.seek(0)
for rec in csv.DictReader(f):
    temp = float(rec["temp_c"])
    print(f"{rec['city']:<12}{temp:>6.1f} {'warm' if temp > 20 else 'cool'}")
