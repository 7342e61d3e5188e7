values = ["  padded  ", None, 42, ["list"], {"k": "v"}, "Ünïcode"]


def clean(value):
    try:
        return value.strip().lower()
    except AttributeError as e:
        return f"<{type(value).__name__}: {e}>"


for v in values:
    print(repr(clean(v)))

for v in values:
    has = [name for name in ("strip", "append", "keys", "upper") if hasattr(v, name)]
    print(type(v).__name__, has)

method = getattr("text", "title")
print(method(), getattr("x", "missing", "default"))
