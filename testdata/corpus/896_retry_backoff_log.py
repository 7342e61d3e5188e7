"""A retry decorator with exponential backoff delays recorded (not slept) and a final error."""
import functools


class RetryError(Exception):
    def __init__(self, name, attempts, errors):
        super().__init__(f"{name} failed {attempts} times")
        self.errors = errors


def retry(times=3, base=0.1, factor=2.0, on=(Exception,)):
    def deco(func):
        @functools.wraps(func)
        def wrapper(*a, **kw):
            errors, delay = [], base
            for attempt in range(times):
                try:
                    return func(*a, **kw)
                except on as e:
                    errors.append(repr(e))
                    wrapper.delays.append(round(delay, 3))
                    delay *= factor
            raise RetryError(func.__name__, times, errors)
        wrapper.delays = []
        return wrapper
    return deco


attempts = iter([TimeoutError("slow"), ConnectionResetError("reset"), "payload"])


@retry(times=5, base=0.05)
def download():
    item = next(attempts)
    if isinstance(item, Exception):
        raise item
    return item


@retry(times=3, on=(KeyError,))
def lookup(d, k):
    return d[k]


print(download(), download.delays)
try:
    lookup({}, "x")
except RetryError as e:
    print(e, e.errors, lookup.delays)
try:
    lookup([], "x")
except TypeError as e:
    print("not retried:", e, lookup.delays)
