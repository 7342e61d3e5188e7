"""Generator-based context managers that swallow and log selected exceptions."""
from contextlib import contextmanager, suppress

errors = []


@contextmanager
def log_errors(*kinds, label="task"):
    try:
        yield
    except kinds as exc:
        errors.append(f"{label}: {type(exc).__name__}: {exc}")
        print(f"{label} failed, continuing")
    else:
        print(f"{label} ok")


def parse_price(text):
    if isinstance(text, str):
        text = text.strip("$")
    return round(float(text), 2)


prices = {}
for sku, raw in [("A1", "$4.50"), ("B2", "four"), ("C3", "$10"), ("D4", None)]:
    with log_errors(ValueError, TypeError, label=sku):
        prices[sku] = parse_price(raw)
print(prices)
print(errors)

try:
    with log_errors(ValueError, label="lookup"):
        {}["missing"]
except KeyError as e:
    print("not suppressed:", repr(e))

with suppress(ZeroDivisionError):
    print("before")
    1 / 0
    print("never")
print("after suppress")
with suppress(KeyError, IndexError):
    [][3]
print(len(errors))
