import csv
import io

# Exports for three systems, each with its own dialect.
csv.register_dialect("pipes", delimiter="|", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
csv.register_dialect("semis", "excel", delimiter=";", quoting=csv.QUOTE_NONNUMERIC)
print(csv.list_dialects())

rows = [["sku", "name", "price"], ["A1", "Desk | large", 199.5], ["B2", 'Lamp "LED"', 35]]
for dialect in ("excel", "pipes", "semis", csv.excel_tab):
    out = io.StringIO()
    csv.writer(out, dialect=dialect).writerows(rows)
    print(repr(out.getvalue()))

d = csv.get_dialect("pipes")
print(d.delimiter, repr(d.lineterminator), d.quoting, d.doublequote, d.quotechar, d.escapechar)
print(csv.excel.delimiter, csv.unix_dialect.quoting == csv.QUOTE_ALL, csv.excel_tab.delimiter == "\t")

back = list(csv.reader(io.StringIO("sku|name\nA1|Desk\n"), "pipes"))
print(back)
print(list(csv.DictReader(io.StringIO('"n";"v"\n"a";1\n'), dialect="semis")))
csv.unregister_dialect("semis")
try:
    csv.get_dialect("semis")
except csv.Error as e:
    print("csv.Error:", e)
