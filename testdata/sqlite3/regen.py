#!/usr/bin/env python3
"""Regenerates the expected output of the golden scripts py_sqlite3_*.txtar
that compare with CPython: for each script holding setup.sql, prog.py and
want.txt, CPython 3.11 builds shop.db from setup.sql in a temporary
directory, runs prog.py there, and its standard output becomes want.txt.

    python3 testdata/sqlite3/regen.py testdata/scripts/py_sqlite3_*.txtar
"""
import os, re, sqlite3, subprocess, sys, tempfile

def sections(text):
    parts = re.split(r"^-- (\S+) --\n", text, flags=re.M)
    return parts[0], dict(zip(parts[1::2], parts[2::2]))

for path in sys.argv[1:]:
    head, files = sections(open(path).read())
    if not {"setup.sql", "prog.py", "want.txt"} <= files.keys():
        continue
    with tempfile.TemporaryDirectory() as d:
        con = sqlite3.connect(os.path.join(d, "shop.db"))
        con.executescript(files["setup.sql"])
        con.close()
        open(os.path.join(d, "prog.py"), "w").write(files["prog.py"])
        out = subprocess.run([sys.executable, "prog.py"], cwd=d, capture_output=True, text=True, check=True).stdout
    files["want.txt"] = out
    with open(path, "w") as f:
        f.write(head + "".join(f"-- {k} --\n{v}" for k, v in files.items()))
    print("regenerated", path)
