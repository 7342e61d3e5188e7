# Export records to CSV text with csv.writer and different quoting modes.
import csv
import io

records = [
    ("Ada Lovelace", 36, "London, UK", None),
    ('Grace "Amazing" Hopper', 85, "New York", 1.5),
    ("Alan Turing", 41, "Wilmslow\nCheshire", True),
]

for mode, name in [(csv.QUOTE_MINIMAL, "minimal"), (csv.QUOTE_ALL, "all"), (csv.QUOTE_NONNUMERIC, "nonnumeric")]:
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=mode)
    writer.writerow(["name", "age", "city", "extra"])
    writer.writerows(records)
    print(f"--- {name}")
    print(repr(buf.getvalue()))

buf = io.StringIO()
w = csv.writer(buf, delimiter="\t", lineterminator="\n")
n = w.writerow(["a", "b\tc", ""])
print(n, repr(buf.getvalue()))
