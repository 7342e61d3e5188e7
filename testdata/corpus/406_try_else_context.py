"""Lookups with try/except/else/finally, wrapped errors and their context."""


class ConfigError(Exception):
    """A configuration value is missing or malformed."""


SETTINGS = {"port": "8080", "debug": "yes", "workers": "four"}


def read_int(key):
    try:
        raw = SETTINGS[key]
    except KeyError:
        raise ConfigError(f"missing setting {key!r}")
    try:
        return int(raw)
    except ValueError as exc:
        raise ConfigError(f"setting {key!r} is not a number: {raw!r}") from exc


def first_number(keys):
    for key in keys:
        try:
            value = read_int(key)
        except ConfigError:
            continue
        else:
            return key, value
        finally:
            print("tried", key)
    return None


for key in ["port", "workers", "timeout"]:
    try:
        print(key, "=", read_int(key))
    except ConfigError as err:
        print("ConfigError:", err)
        print("  cause:", repr(err.__cause__), "context:", type(err.__context__).__name__)
        print("  suppressed:", err.__suppress_context__)

print(first_number(["timeout", "workers", "port", "debug"]))
print(ConfigError.__doc__)
