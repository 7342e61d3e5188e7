"""A generator of backoff delays drives a retry loop (delays are recorded, not slept)."""
import random
from itertools import islice


def exponential_backoff(base=0.1, factor=2.0, cap=2.0, jitter=None):
    delay = base
    while True:
        yield min(cap, delay) if jitter is None else round(min(cap, delay) * jitter.uniform(0.5, 1.0), 3)
        delay *= factor


class FlakyService:
    def __init__(self, failures):
        self.failures = failures
        self.calls = 0

    def call(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionError(f"attempt {self.calls} refused")
        return {"status": "ok", "attempts": self.calls}


def with_retries(fn, delays, max_attempts):
    waited = []
    for attempt, delay in zip(range(1, max_attempts + 1), delays):
        try:
            return fn(), waited
        except ConnectionError as e:
            print(f"  {e}; retrying in {delay}s")
            waited.append(delay)
    raise TimeoutError(f"gave up after {max_attempts} attempts")


print(list(islice(exponential_backoff(), 7)))
print(list(islice(exponential_backoff(jitter=random.Random(42)), 4)))
result, waited = with_retries(FlakyService(3).call, exponential_backoff(), 5)
print(result, "total wait", round(sum(waited), 2))
try:
    with_retries(FlakyService(10).call, exponential_backoff(base=1), 3)
except TimeoutError as e:
    print("TimeoutError:", e)
