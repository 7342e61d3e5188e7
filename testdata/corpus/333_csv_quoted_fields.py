# Parse CSV with quoted fields, embedded commas, quotes and newlines.
import csv

lines = [
    'id,title,comment',
    '1,"Hello, world","He said ""hi"""',
    '2,Plain,"multi',
    'line comment"',
    '3,"",',
    '',
    '4,  spaced  ,"  padded  "',
]
reader = csv.reader(lines)
header = next(reader)
print("header:", header)
for row in reader:
    print(reader.line_num, row)

print(list(csv.reader(['a, "b, c", d'], skipinitialspace=True)))
print(list(csv.reader(["x|y|'z|w'"], delimiter="|", quotechar="'")))
print(list(csv.reader(['1,"2",3.5'], quoting=csv.QUOTE_NONNUMERIC)))
