import os.path

paths = ["data/sales.csv", "src/pkg/mod.py", "notes/todo.md", "archive.tar.gz", "README"]
for p in paths:
    root, ext = os.path.splitext(p)
    print(os.path.basename(p), os.path.dirname(p) or ".", ext or "-", os.path.join("backup", root))
print(os.path.normpath("a/./b/../c//d"))
print(os.path.commonpath(["src/pkg/mod.py", "src/app.py"]))
