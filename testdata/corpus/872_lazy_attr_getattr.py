"""A settings object with __getattr__ fallback to defaults and attribute-style dict access."""


class AttrDict(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no setting {name!r}") from None

    def __setattr__(self, name, value):
        self[name] = value


class Settings:
    DEFAULTS = {"theme": "light", "lang": "en", "page_size": 20}

    def __init__(self, **overrides):
        self.overrides = overrides

    def __getattr__(self, name):
        if name in self.overrides:
            return self.overrides[name]
        if name in self.DEFAULTS:
            return self.DEFAULTS[name]
        raise AttributeError(f"{type(self).__name__} has no setting {name!r}")


s = Settings(theme="dark")
print(s.theme, s.lang, s.page_size, hasattr(s, "colour"), getattr(s, "colour", "n/a"))
try:
    s.colour
except AttributeError as e:
    print("AttributeError:", e)
a = AttrDict(host="h", port=1)
a.debug = True
print(a, a.host, a.debug)
try:
    a.missing
except AttributeError as e:
    print("AttributeError:", e)
