import json

# A report keyed by numbers: sort_keys orders them as numbers, not text.
by_status = {404: 12, 200: 950, 500: 3, 301: 40}
print(json.dumps(by_status, sort_keys=True))
print(json.dumps({"b": {"z": 1, "a": 2}, "a": [3, 1]}, sort_keys=True, indent=2))

ranks = {10: "ten", 2: "two", 1.5: "one and a half"}
print(json.dumps(ranks, sort_keys=True))
try:
    json.dumps({"name": 1, 2: "two"}, sort_keys=True)
except TypeError as e:
    print("TypeError:", e)

for bad in ['{"a": "\\u12"}', '["\\u00zz"]', '{"a": 1,}']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(e.msg, e.pos, e.colno)
try:
    json.dumps({"a": 1}, separators=(",",))
except ValueError as e:
    print("ValueError:", e)
