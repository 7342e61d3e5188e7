attempts = []


def process(value):
    try:
        return 100 // value
    except ZeroDivisionError:
        attempts.append(f"logged failure for {value}")
        raise


def run_all(values):
    results = []
    for v in values:
        try:
            results.append(process(v))
        except ZeroDivisionError as e:
            results.append(f"error: {e}")
    return results


print(run_all([5, 0, 3, 0, -7]))
print(attempts)

try:
    try:
        raise KeyError("inner")
    except KeyError:
        print("handling inner, then re-raising")
        raise
except KeyError as e:
    print("outer caught:", repr(e), e.args)
