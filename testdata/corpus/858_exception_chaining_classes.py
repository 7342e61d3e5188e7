"""Wrapping low-level errors in domain exceptions with raise ... from, and inspecting chains."""


class AppError(Exception):
    code = 1

    def __str__(self):
        return f"[E{self.code}] {super().__str__()}"


class StorageError(AppError):
    code = 20


class ParseError(AppError):
    code = 30

    def __init__(self, line, msg):
        super().__init__(msg)
        self.line = line


def parse(lines):
    out = []
    for i, line in enumerate(lines, 1):
        try:
            k, v = line.split("=")
            out.append((k, int(v)))
        except ValueError as e:
            raise ParseError(i, f"line {i}: {line!r}") from e
    return out


def load(store, key):
    try:
        return parse(store[key])
    except KeyError as e:
        raise StorageError(f"no such key {key}") from e


store = {"good": ["a=1", "b=2"], "bad": ["a=1", "b=two"]}
print(load(store, "good"))
for key in ["bad", "missing"]:
    try:
        load(store, key)
    except AppError as e:
        print(type(e).__name__, e.code, str(e))
        print("  cause:", type(e.__cause__).__name__, e.__cause__)
        print("  args:", e.args, getattr(e, "line", None))
