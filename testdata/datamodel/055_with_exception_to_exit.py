# __exit__ gets (type, value, traceback) for an exception in the body and
# (None, None, None) otherwise; a true return suppresses the exception.
class CM:
    def __init__(self, ret):
        self.ret = ret

    def __enter__(self):
        print("enter")
        return "value-from-enter"

    def __exit__(self, t, v, tb):
        print("exit", t.__name__ if t else None, repr(v), tb is None)
        return self.ret


with CM(False) as x:
    print("body", x)
with CM(True):
    raise ValueError("swallowed")
print("after suppressed")
with CM("non-empty string"):
    raise KeyError("also swallowed")
try:
    with CM(0):
        raise TypeError("kept")
except TypeError as e:
    print("caught", e)
