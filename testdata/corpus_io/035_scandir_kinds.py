import os

with os.scandir(".") as it:
    entries = sorted(it, key=lambda e: e.name)
for e in entries:
    kind = "dir " if e.is_dir() else "file"
    print(kind, e.name)
