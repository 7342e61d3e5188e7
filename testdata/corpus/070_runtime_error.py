MAX_RETRIES = 3
state = {"calls": 0}


def flaky_fetch(key: str) -> str:
    """Fails twice, then succeeds."""
    state["calls"] += 1
    if state["calls"] < 3:
        raise RuntimeError(f"temporary failure #{state['calls']}")
    return f"value-for-{key}"


def fetch_with_retry(key: str, retries: int = MAX_RETRIES) -> str:
    last_error = None
    for attempt in range(1, retries + 1):
        try:
            return flaky_fetch(key)
        except RuntimeError as e:
            last_error = e
            print(f"attempt {attempt} failed: {e}")
    raise RuntimeError(f"giving up on {key!r} after {retries} attempts") from last_error


print(fetch_with_retry("alpha"))
state["calls"] = -10
try:
    fetch_with_retry("beta", retries=2)
except RuntimeError as e:
    print("final:", e)
