"""Inspecting what __exit__ receives: exception type, value and traceback presence."""


class Inspect:
    def __init__(self, suppress=()):
        self.suppress = suppress

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            print("exit: clean", exc, tb)
            return None
        print("exit:", exc_type.__name__, repr(exc), tb is not None, isinstance(exc, exc_type))
        return issubclass(exc_type, self.suppress)


with Inspect():
    pass
with Inspect(suppress=(ZeroDivisionError,)):
    1 / 0
with Inspect(suppress=(LookupError,)):
    [][1]
try:
    with Inspect(suppress=(LookupError,)):
        raise TypeError("no")
except TypeError as e:
    print("outside:", e)
with Inspect() as i:
    print(type(i).__name__, i.suppress)
