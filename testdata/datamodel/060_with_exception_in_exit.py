# An exception raised by __exit__ replaces the body's, which becomes its
# __context__.
class Bad:
    def __enter__(self):
        return self

    def __exit__(self, t, v, tb):
        raise ValueError(f"exit failed while handling {t.__name__ if t else None}")


try:
    with Bad():
        raise KeyError("body")
except Exception as e:
    print(type(e).__name__, e, "| context:", repr(e.__context__))
try:
    with Bad():
        pass
except ValueError as e:
    print(type(e).__name__, e, e.__context__)
