"""A retry decorator factory with functools.wraps around a flaky operation."""
import functools


def retry(times=3, exceptions=(Exception,)):
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            last = None
            for attempt in range(1, times + 1):
                try:
                    result = func(*args, **kwargs)
                    print(f"  {func.__name__}: ok on attempt {attempt}")
                    return result
                except exceptions as e:
                    print(f"  {func.__name__}: attempt {attempt} failed: {e}")
                    last = e
            raise RuntimeError(f"{func.__name__} gave up after {times} attempts") from last
        return wrapper
    return decorate


state = {"calls": 0}


@retry(times=4, exceptions=(ConnectionError,))
def fetch(url):
    """Pretend to fetch a URL; fails twice."""
    state["calls"] += 1
    if state["calls"] < 3:
        raise ConnectionError(f"timeout #{state['calls']}")
    return f"<html>{url}</html>"


@retry(times=2)
def always_fails():
    raise ValueError("nope")


print(fetch("example.org"))
print(fetch.__name__, "|", fetch.__doc__)
try:
    always_fails()
except RuntimeError as e:
    print("gave up:", e, "| cause:", repr(e.__cause__))
print(fetch.__wrapped__.__name__)
