import hashlib

manifest = {
    "app.js": "b2b6e0e2ef1d3c1b0b5f0f0d5a5c8f1c2a8d0f6e2b1e3c4d5a6b7c8d9e0f1a2b",
    "style.css": hashlib.sha256(b"body { color: red }").hexdigest(),
    "index.html": hashlib.sha256("<h1>Hé</h1>".encode()).hexdigest(),
    "missing.txt": "0" * 64,
}
downloaded = {
    "app.js": b"console.log('hi')",
    "style.css": b"body { color: red }",
    "index.html": "<h1>Hé</h1>".encode(),
    "extra.txt": b"surprise",
}

ok, bad, missing = [], [], []
for name, expected in sorted(manifest.items()):
    if name not in downloaded:
        missing.append(name)
        continue
    actual = hashlib.sha256(downloaded[name]).hexdigest()
    (ok if actual == expected else bad).append(name)
    print(f"{name:<11} {'OK' if actual == expected else 'MISMATCH'} {actual[:12]}")

print("ok:", ok)
print("bad:", bad)
print("missing:", missing, "unexpected:", sorted(set(downloaded) - set(manifest)))

for value in ["text", 42, None, b"bytes"]:
    try:
        print(type(value).__name__, hashlib.sha256(value).hexdigest()[:8])
    except TypeError as e:
        print(type(value).__name__, "->", e)
