# functools.wraps copies __module__, __name__, __qualname__, __doc__,
# __dict__ and sets __wrapped__; without it the wrapper keeps its own.
import functools


def with_wraps(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper


def without(fn):
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper


def target(x: int) -> int:
    """Target doc."""
    return x


target.custom = "attr"
w, n = with_wraps(target), without(target)
print(w.__name__, w.__qualname__, w.__doc__, w.__module__, w.custom, w.__wrapped__ is target)
print(n.__name__, n.__qualname__, n.__doc__, hasattr(n, "custom"), hasattr(n, "__wrapped__"))
print(w.__annotations__, n.__annotations__)
