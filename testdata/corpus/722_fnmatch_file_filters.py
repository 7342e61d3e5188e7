"""Filter a file listing with shell-style wildcards."""
import fnmatch

listing = [
    "src/main.py", "src/utils.py", "src/__init__.py", "tests/test_main.py",
    "README.md", "docs/guide.md", "data/2024-01.csv", "data/2024-02.csv",
    "data/2023-12.csv", "build/out.o", ".env", "notes[draft].txt", "Makefile",
]

INCLUDE = ["*.py", "*.md", "data/2024-*.csv"]
EXCLUDE = ["tests/*", "*__init__*", ".*"]


def keep(path: str) -> bool:
    if any(fnmatch.fnmatch(path, pat) for pat in EXCLUDE):
        return False
    return any(fnmatch.fnmatch(path, pat) for pat in INCLUDE)


kept = [p for p in listing if keep(p)]
print("kept:", kept)
print("csv of 2024:", fnmatch.filter(listing, "data/2024-0[1-6].csv"))
print("one-char ext:", fnmatch.filter(listing, "*.?"))
print("not markdown:", len(fnmatch.filter(listing, "*.[!m]*")))
print("literal brackets:", fnmatch.filter(listing, "notes[[]draft].txt"))
print("case:", fnmatch.fnmatch("makefile", "Makefile"), fnmatch.fnmatchcase("Makefile", "[Mm]akefile"))
by_ext = {}
for p in listing:
    for ext in ("py", "md", "csv"):
        if fnmatch.fnmatch(p, "*." + ext):
            by_ext.setdefault(ext, []).append(p)
for ext, files in sorted(by_ext.items()):
    print(f"{ext:>4}: {len(files)}")
print(fnmatch.translate("data/*.csv"))
