class TransientError(Exception):
    pass


class PermanentError(Exception):
    pass


def make_flaky(outcomes):
    calls = {"n": 0}

    def call():
        i = calls["n"]
        calls["n"] += 1
        outcome = outcomes[min(i, len(outcomes) - 1)]
        if outcome == "transient":
            raise TransientError(f"try {i + 1}: service unavailable")
        if outcome == "permanent":
            raise PermanentError(f"try {i + 1}: bad request")
        return outcome

    return call


def with_retries(fn, attempts=4, base_delay=0.5):
    delays = []
    for attempt in range(1, attempts + 1):
        try:
            return fn(), delays
        except TransientError as e:
            if attempt == attempts:
                raise RuntimeError(f"gave up after {attempts} attempts: {e}") from e
            delays.append(base_delay * 2 ** (attempt - 1))
        except PermanentError:
            raise


for outcomes in (["ok"], ["transient", "transient", "ok"], ["transient"] * 5, ["transient", "permanent"]):
    try:
        result, delays = with_retries(make_flaky(outcomes))
        print(f"{outcomes}: {result!r} after waiting {sum(delays)}s {delays}")
    except Exception as e:
        print(f"{outcomes}: {type(e).__name__}: {e}")
