import base64

tokens = [
    "aGVsbG8gd29ybGQ=",
    "aGVsbG8gd29ybGQ",
    "aGVsbG8g d29ybGQ=",
    "aGVsbG8*d29ybGQ=",
    "YQ==YWJj",
    "=YWJj",
    "YWJjZ",
    "",
    "w6k=",
]

def check(token, strict):
    try:
        data = base64.b64decode(token, validate=strict)
        return "ok " + repr(data.decode("utf-8", errors="replace"))
    except ValueError as e:
        return f"{type(e).__name__}: {e}"

for t in tokens:
    print(f"{t!r:<22} lenient: {check(t, False)}")
    print(f"{'':<22} strict:  {check(t, True)}")

good = [t for t in tokens if check(t, True).startswith("ok")]
print(len(good), "of", len(tokens), "valid strictly")
try:
    base64.b64decode("naïve")
except ValueError as e:
    print("non-ASCII:", e)
