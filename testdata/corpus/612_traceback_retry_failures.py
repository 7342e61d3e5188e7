import traceback

attempts = {"fetch_a": 0, "fetch_b": 0}


def fetch(name, fail_times):
    attempts[name] += 1
    if attempts[name] <= fail_times:
        raise ConnectionError(f"{name}: attempt {attempts[name]} refused")
    return f"{name} ok after {attempts[name]}"


def with_retry(name, fail_times, retries=3):
    errors = []
    for _ in range(retries):
        try:
            return fetch(name, fail_times), errors
        except ConnectionError:
            last = traceback.format_exc().strip().splitlines()[-1]
            errors.append(last)
    return None, errors


for name, fails in [("fetch_a", 1), ("fetch_b", 5)]:
    result, errors = with_retry(name, fails)
    print(result)
    for e in errors:
        print("  ", e)
print(attempts)
