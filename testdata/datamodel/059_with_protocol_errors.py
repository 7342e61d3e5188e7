# An object without __enter__/__exit__ is a TypeError naming the protocol;
# __enter__/__exit__ are looked up on the type, not the instance.
class NoCM:
    pass


class OnlyEnter:
    def __enter__(self):
        return self


x = NoCM()
x.__enter__ = lambda: None
x.__exit__ = lambda *a: None
for obj in (NoCM(), OnlyEnter(), x, 42):
    try:
        with obj:
            pass
    except TypeError as e:
        print(type(e).__name__, e)
