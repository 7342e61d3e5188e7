# Retry an operation with exponential backoff; the waits are real but tiny.
import time

attempts_log = []


class TransientError(Exception):
    pass


def flaky(attempt):
    attempts_log.append(attempt)
    if attempt < 4:
        raise TransientError(f"attempt {attempt} failed")
    return "payload"

def with_retries(fn, tries=6, base=0.001, factor=2.0):
    delays = []
    for attempt in range(1, tries + 1):
        try:
            return fn(attempt), delays
        except TransientError as e:
            delay = base * factor ** (attempt - 1)
            delays.append(round(delay, 4))
            print(f"{e}; retrying in {delay * 1000:.0f} ms")
            time.sleep(delay)
    raise RuntimeError("gave up")

start = time.perf_counter()
result, delays = with_retries(flaky)
elapsed = time.perf_counter() - start
print("result:", result, "after", len(attempts_log), "attempts")
print("delays:", delays, "sum:", round(sum(delays), 4))
print("elapsed at least the delays:", elapsed >= sum(delays))
