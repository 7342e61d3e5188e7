from contextlib import contextmanager

settings = {"debug": False, "retries": 3, "region": "eu"}


@contextmanager
def override(config, **changes):
    """Temporarily change keys of a dict, restoring (or removing) them afterwards."""
    missing = object()
    saved = {k: config.get(k, missing) for k in changes}
    config.update(changes)
    try:
        yield config
    finally:
        for key, old in saved.items():
            if old is missing:
                del config[key]
            else:
                config[key] = old


def describe():
    return ", ".join(f"{k}={settings[k]}" for k in sorted(settings))


print(describe())
with override(settings, debug=True, timeout=5) as cfg:
    print("inside:", describe(), cfg is settings)
    with override(settings, region="us", retries=0):
        print("nested:", describe())
    print("back:", describe())
print("after:", describe())

try:
    with override(settings, retries=99):
        print("during failure:", settings["retries"])
        raise KeyError("region")
except KeyError as e:
    print("KeyError:", e, "restored retries:", settings["retries"])


@contextmanager
def working_list(items):
    copy = list(items)
    yield copy
    items[:] = sorted(copy)


data = [3, 1, 2]
with working_list(data) as w:
    w.append(0)
print(data)
