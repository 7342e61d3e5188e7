import csv
import io

# Text from different systems: normalise its line endings with StringIO.
windows = "name,qty\r\napple,3\r\npear,5\r\n"
old_mac = "name,qty\rkiwi,7\rplum,2\r"

print(io.StringIO(windows, newline=None).getvalue().splitlines(keepends=True))
print(io.StringIO(old_mac, newline="").readlines())
print(list(csv.reader(io.StringIO(windows, newline=""))))
print(list(csv.DictReader(io.StringIO(old_mac, newline=None))))

out = io.StringIO(newline="\r\n")
out.write("line one\nline two\n")
print(repr(out.getvalue()))

buf = io.StringIO("a\nb\nc")
print(buf.readable(), buf.seekable(), buf.isatty(), isinstance(buf, io.StringIO))
for n, line in enumerate(buf, 1):
    print(n, repr(line))
try:
    io.StringIO("x", newline="\t")
except ValueError as e:
    print("ValueError:", e)
