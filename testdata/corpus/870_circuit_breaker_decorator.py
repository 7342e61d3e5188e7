"""A circuit breaker class used as a decorator: opens after failures, rejects calls."""
import functools


class CircuitOpen(Exception):
    pass


class CircuitBreaker:
    def __init__(self, threshold=2):
        self.threshold = threshold
        self.failures = 0
        self.state = "closed"

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if self.state == "open":
                raise CircuitOpen(f"{func.__name__} is unavailable")
            try:
                result = func(*args, **kwargs)
            except Exception:
                self.failures += 1
                if self.failures >= self.threshold:
                    self.state = "open"
                raise
            self.failures = 0
            return result
        wrapper.breaker = self
        return wrapper


@CircuitBreaker(threshold=3)
def call_service(x):
    if x < 0:
        raise ValueError(f"negative {x}")
    return x * 10


for x in [1, -1, 2, -2, -3, -4, 5, 6]:
    try:
        print(x, "->", call_service(x))
    except CircuitOpen as e:
        print(x, "-> open:", e)
    except ValueError as e:
        print(x, "-> failed:", e, call_service.breaker.failures)
print(call_service.breaker.state, call_service.__name__)
