import hashlib

# File contents as a tool returned them; find duplicates by checksum.
files = {
    "docs/readme.md": "# Project\n\nSee docs.\n",
    "docs/copy_of_readme.md": "# Project\n\nSee docs.\n",
    "src/main.py": "print('hello')\n",
    "src/util.py": "def f():\n    return 1\n",
    "notes/ünïcode.txt": "café, naïve, 日本\n",
    "backup/main.py": "print('hello')\n",
}

by_digest = {}
for path in sorted(files):
    digest = hashlib.sha256(files[path].encode("utf-8")).hexdigest()
    by_digest.setdefault(digest, []).append(path)
    print(f"{digest[:12]}  {len(files[path]):>3} chars  {path}")

print()
dupes = [paths for paths in by_digest.values() if len(paths) > 1]
print(f"{len(files)} files, {len(by_digest)} distinct, {len(dupes)} duplicate groups")
for paths in sorted(dupes):
    print("  same content:", ", ".join(paths))

md5s = {p: hashlib.md5(t.encode()).hexdigest() for p, t in files.items()}
print(md5s["src/main.py"] == md5s["backup/main.py"], md5s["notes/ünïcode.txt"])
