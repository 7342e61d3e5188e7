# Agent-style: serialise records into an in-memory buffer, read them back.
import io
import json

records = [
    {"id": 1, "name": "alpha", "tags": ["x", "y"], "score": 9.5},
    {"id": 2, "name": "beta", "tags": [], "score": None},
]
buf = io.StringIO()
json.dump(records, buf, indent=2, sort_keys=True)
text = buf.getvalue()
print(text)
print(len(text.splitlines()), "lines")

buf.seek(0)
loaded = json.load(buf)
print(loaded == records, loaded[0]["tags"])

# One JSON document per line (JSON Lines) written with dump.
out = io.StringIO()
for r in records:
    json.dump(r, out, separators=(",", ":"))
    out.write("\n")
print(out.getvalue(), end="")
lines = [json.loads(line) for line in out.getvalue().splitlines()]
print([r["name"] for r in lines])

try:
    json.load(io.StringIO('{"broken": [1, 2'))
except json.JSONDecodeError as e:
    print("bad document:", e.msg, "at", e.pos)
try:
    json.dump({"a": 1}, "not a file")
except AttributeError as e:
    print("AttributeError:", e)
print(json.load(io.StringIO('{"n": 1.25}'), parse_float=str))
