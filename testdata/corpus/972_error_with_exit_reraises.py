"""An audit context manager that logs and re-raises; the last failure is not caught."""


class Audit:
    entries = []

    def __init__(self, action):
        self.action = action

    def __enter__(self):
        Audit.entries.append(f"begin {self.action}")
        return self

    def __exit__(self, exc_type, exc, tb):
        status = "ok" if exc_type is None else f"error {exc_type.__name__}"
        Audit.entries.append(f"end {self.action}: {status}")
        return False


with Audit("create"):
    record = {"id": 1}
try:
    with Audit("update"):
        record["missing"] += 1
except KeyError:
    pass
print(Audit.entries)
with Audit("delete"):
    del record["id"]
    del record["id"]
