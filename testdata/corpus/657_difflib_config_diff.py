import difflib

# Show what changed between two versions of a config file, as a review bot does.
old = """[server]
host = 0.0.0.0
port = 8080
workers = 4
timeout = 30

[database]
url = postgres://db/app
pool = 5
""".splitlines(keepends=True)

new = """[server]
host = 0.0.0.0
port = 9090
workers = 4
timeout = 30
keepalive = true

[database]
url = postgres://db/app
pool = 10
""".splitlines(keepends=True)

diff = difflib.unified_diff(old, new, fromfile="app.ini", tofile="app.ini (new)")
print("".join(diff), end="")

sm = difflib.SequenceMatcher(None, old, new)
print(f"similarity: {sm.ratio():.3f}")
for tag, i1, i2, j1, j2 in sm.get_opcodes():
    if tag != "equal":
        print(f"{tag:8} old[{i1}:{i2}] -> new[{j1}:{j2}]", [l.strip() for l in old[i1:i2]], [l.strip() for l in new[j1:j2]])

changed = sum(1 for line in difflib.unified_diff(old, new, n=0) if line[:1] in "+-" and not line.startswith(("---", "+++")))
print("changed lines:", changed)
print(list(difflib.unified_diff(["same\n"], ["same\n"])))
