"""Sorting versions with an ordered frozen dataclass and using them as dict keys."""
from dataclasses import dataclass


@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0

    @classmethod
    def parse(cls, text):
        parts = [int(p) for p in text.lstrip("v").split(".")]
        return cls(*parts)

    def __str__(self):
        return f"v{self.major}.{self.minor}.{self.patch}"


raw = ["1.2.3", "v0.9", "1.10.0", "1.2", "2", "1.2.10"]
versions = [Version.parse(r) for r in raw]
print(sorted(versions))
print([str(v) for v in sorted(versions, reverse=True)])
print(max(versions), min(versions))
print(Version(1, 2) < Version(1, 2, 1), Version(2) >= Version(1, 99, 99))
released = {Version(1, 2): "stable", Version(2): "beta"}
print(released[Version.parse("1.2.0")], Version(2) in released)
print(len(set(versions + [Version(2, 0, 0)])))
