"""Stacked logging and call-counting decorators, showing the order they apply in."""
import functools

LOG = []


def logged(prefix):
    def deco(func):
        @functools.wraps(func)
        def inner(*args, **kwargs):
            LOG.append(f"{prefix}> {func.__name__}{args}")
            result = func(*args, **kwargs)
            LOG.append(f"{prefix}< {result!r}")
            return result
        return inner
    return deco


def counted(func):
    @functools.wraps(func)
    def inner(*args, **kwargs):
        inner.calls += 1
        return func(*args, **kwargs)
    inner.calls = 0
    return inner


@counted
@logged("outer")
@logged("inner")
def area(w, h=1):
    """Area of a rectangle."""
    return w * h


print(area(3, 4), area(5))
print(area.calls, area.__name__, area.__doc__)
for line in LOG:
    print(line)
print(area.__wrapped__.__wrapped__.__name__)
