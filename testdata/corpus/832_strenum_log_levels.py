"""Log levels as a StrEnum, parsed from text and used as dict keys and in f-strings."""
from enum import StrEnum, auto


class Level(StrEnum):
    DEBUG = auto()
    INFO = auto()
    WARNING = auto()
    ERROR = auto()


LINES = """info starting
debug cache warm
warning disk 91%
error write failed
info done""".splitlines()

counts = {lvl: 0 for lvl in Level}
for line in LINES:
    word, msg = line.split(" ", 1)
    lvl = Level(word)
    counts[lvl] += 1
    if lvl in (Level.WARNING, Level.ERROR):
        print(f"[{lvl.upper()}] {msg}")
print({str(k): v for k, v in counts.items()})
print(Level.INFO == "info", Level.ERROR.value, f"{Level.DEBUG}", Level["WARNING"])
print(repr(Level.INFO), "-".join(Level), Level.INFO.upper())
print(sorted(Level), isinstance(Level.INFO, str))
