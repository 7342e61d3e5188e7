"""Cleaning up several resources with ExitStack and ignoring errors with suppress."""
from contextlib import ExitStack, suppress


class Resource:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def __enter__(self):
        self.log.append("open " + self.name)
        return self

    def __exit__(self, *exc):
        self.log.append("close " + self.name)
        return False


log = []
with ExitStack() as stack:
    handles = [stack.enter_context(Resource(n, log)) for n in ("db", "cache", "queue")]
    stack.callback(log.append, "callback ran")
    log.append("using " + ", ".join(h.name for h in handles))
print("\n".join(log))

values = {}
with suppress(KeyError):
    print(values["missing"])
print("after suppress")
with suppress(ValueError, TypeError):
    int("nope")
    print("skipped")

log.clear()
try:
    with ExitStack() as stack:
        stack.enter_context(Resource("a", log))
        stack.enter_context(Resource("b", log))
        raise RuntimeError("boom")
except RuntimeError as e:
    log.append(f"caught {e}")
print(log)
