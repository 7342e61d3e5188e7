"""A case-insensitive header dict: overriding __setitem__, __getitem__, __contains__ and get."""


class Headers(dict):
    def __init__(self, items=()):
        super().__init__()
        for k, v in dict(items).items():
            self[k] = v

    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)

    def __getitem__(self, key):
        return super().__getitem__(key.lower())

    def __contains__(self, key):
        return super().__contains__(key.lower())

    def get(self, key, default=None):
        return super().get(key.lower(), default)

    def __repr__(self):
        return f"Headers({dict.__repr__(self)})"


h = Headers({"Content-Type": "text/html", "X-Trace": "1"})
h["ACCEPT"] = "*/*"
print(h, len(h))
print(h["content-type"], "x-TRACE" in h, h.get("Accept"), h.get("missing", "-"))
print(sorted(h), list(h.values())[0], isinstance(h, dict))
try:
    h["Nope"]
except KeyError as e:
    print("KeyError:", e)
h.update({"X-Trace": "2"})
print(h, "X-Trace" in h)
