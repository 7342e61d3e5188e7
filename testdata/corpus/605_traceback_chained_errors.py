import traceback


class ConfigError(Exception):
    pass


def read_setting(settings, name):
    try:
        return settings[name]
    except KeyError as e:
        raise ConfigError(f"missing setting {name!r}") from e


def connect(settings):
    try:
        timeout = float(read_setting(settings, "timeout"))
    except ConfigError:
        raise RuntimeError("cannot connect")
    return timeout


for s in [{"timeout": "2.5"}, {}]:
    try:
        print("timeout", connect(s))
    except RuntimeError as e:
        lines = traceback.format_exception(type(e), e, e.__traceback__)
        text = "".join(lines)
        print(type(e).__name__, "|", e, "|", type(e.__context__).__name__, "|", type(e.__context__.__cause__).__name__)
        print("direct cause" in text, "During handling" in text)
        print([l for l in text.splitlines() if not l.startswith(" ")])
        print(len(traceback.format_exception(e, chain=False)))
