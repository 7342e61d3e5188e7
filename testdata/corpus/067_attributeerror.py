records = [{"name": " Alice "}, {"name": None}, {"name": "Bob"}, {}]

for r in records:
    name = r.get("name")
    try:
        print(repr(name.strip().lower()))
    except AttributeError as e:
        print("cannot clean:", e)

values = [3, "text", [1, 2], 2.5]
for v in values:
    try:
        v.append(0)
        print("appended to", v)
    except AttributeError as e:
        print(type(v).__name__, "has no append:", e)

try:
    "abc".no_such_method()
except AttributeError as e:
    print(e)
