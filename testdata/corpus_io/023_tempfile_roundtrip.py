import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "scratch.txt")
    with open(path, "w") as f:
        f.write("line 1\nline 2\n")
    with open(path) as f:
        print(f.read().split())
    print(os.path.exists(path))
print(os.path.exists(path))
