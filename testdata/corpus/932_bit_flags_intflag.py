"""Feature toggles with enum.IntFlag: combining, testing, storing as an int and reading back."""
from enum import IntFlag


class Feature(IntFlag):
    BETA = 1
    DARK_MODE = 2
    EXPORT = 4
    ADMIN = 8


users = {"ana": Feature.BETA | Feature.EXPORT, "bo": Feature.DARK_MODE, "cy": Feature(15)}
stored = {name: int(f) for name, f in users.items()}
print(stored)
restored = {name: Feature(v) for name, v in stored.items()}
for name, f in restored.items():
    print(name, [m.name for m in Feature if m in f], Feature.ADMIN in f)
print(Feature.BETA | 2, Feature.EXPORT + 1, Feature.ADMIN == 8, Feature(6))
print(restored["cy"] & ~Feature.ADMIN, bool(Feature(0)), repr(Feature.BETA | Feature.ADMIN))
