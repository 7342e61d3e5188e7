import csv
import io

# A CSV export with one huge notes field: raise the field size limit.
notes = "x" * 200000
buf = io.StringIO()
w = csv.writer(buf)
w.writerow(["id", "notes"])
w.writerow([1, notes])
w.writerow([2, "short"])
buf.seek(0)
try:
    rows = list(csv.reader(buf))
except csv.Error as e:
    print("csv.Error:", e)
old = csv.field_size_limit(1_000_000)
buf.seek(0, io.SEEK_SET)
rows = list(csv.reader(buf))
print(old, csv.field_size_limit(), [(r[0], len(r[1])) for r in rows])
buf.seek(0, io.SEEK_END)
end = buf.tell()
buf.write("3,appended\r\n")
buf.seek(end)
print(repr(buf.read()), io.SEEK_SET, io.SEEK_CUR, io.SEEK_END)
