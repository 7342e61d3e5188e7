"""Parsing a config file's enum-valued options with helpful errors listing the choices."""
from enum import Enum, IntEnum


class Mode(Enum):
    FAST = "fast"
    SAFE = "safe"
    DEBUG = "debug"


class Level(IntEnum):
    QUIET = 0
    NORMAL = 1
    LOUD = 2


class ConfigError(ValueError):
    pass


def parse_enum(cls, raw):
    try:
        if issubclass(cls, IntEnum):
            return cls(int(raw)) if raw.isdigit() else cls[raw.upper()]
        return cls(raw.lower())
    except (ValueError, KeyError):
        choices = ", ".join(m.name.lower() for m in cls)
        raise ConfigError(f"{raw!r} is not a {cls.__name__} (choose {choices})") from None


CONFIG = {"mode": "SAFE", "level": "2", "verbosity": "loud", "fallback": "turbo"}
SCHEMA = {"mode": Mode, "level": Level, "verbosity": Level, "fallback": Mode}
parsed = {}
for key, raw in CONFIG.items():
    try:
        parsed[key] = parse_enum(SCHEMA[key], raw)
    except ConfigError as e:
        print(f"{key}: {e}")
print(parsed)
print(parsed["level"] > Level.NORMAL, parsed["verbosity"] == 2, parsed["mode"] is Mode.SAFE)
