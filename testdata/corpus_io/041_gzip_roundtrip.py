import gzip

with gzip.open("reports/log.gz", "wt") as f:
    f.write(open("logs/app.log").read())
with gzip.open("reports/log.gz", "rt") as f:
    lines = f.readlines()
print(len(lines), lines[0].split()[2])
print(gzip.decompress(gzip.compress(b"hello")) == b"hello")
