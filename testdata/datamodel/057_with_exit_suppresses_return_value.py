# A suppressed exception inside a function means the with statement completes
# and execution continues after it; the return in __exit__'s truthiness only
# affects exceptions, not returns.
class Swallow:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def f():
    with Swallow():
        raise RuntimeError("gone")
        return "never"
    return "after with"


def g():
    with Swallow():
        return "from body"
    return "not reached"


print(f(), g())
