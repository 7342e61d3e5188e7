"""A context manager that temporarily overrides settings and restores them, even on errors."""


class Settings:
    def __init__(self, **values):
        self.__dict__.update(values)

    def override(self, **changes):
        return Override(self, changes)

    def __repr__(self):
        return "Settings(" + ", ".join(f"{k}={v!r}" for k, v in sorted(vars(self).items())) + ")"


class Override:
    _missing = object()

    def __init__(self, target, changes):
        self.target, self.changes = target, changes

    def __enter__(self):
        self.saved = {k: getattr(self.target, k, self._missing) for k in self.changes}
        for k, v in self.changes.items():
            setattr(self.target, k, v)
        return self.target

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            if v is self._missing:
                delattr(self.target, k)
            else:
                setattr(self.target, k, v)


s = Settings(debug=False, level="info")
with s.override(debug=True, extra=1) as cfg:
    print("inside", cfg)
print("after", s)
try:
    with s.override(level="trace"):
        print("inside", s.level)
        raise RuntimeError("fail")
except RuntimeError:
    print("restored", s.level)
with s.override(level="warn"):
    with s.override(level="error"):
        print(s.level)
    print(s.level)
print(s)
