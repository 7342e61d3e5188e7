"""Normalising messy names and phone numbers with str methods, re and a validator decorator."""
import re
import functools


def non_empty(fn):
    @functools.wraps(fn)
    def wrapper(value):
        value = value.strip()
        if not value:
            raise ValueError(f"{fn.__name__}: empty input")
        return fn(value)
    return wrapper


@non_empty
def normalise_name(s):
    parts = re.split(r"[\s_]+", s)
    return " ".join(p[:1].upper() + p[1:].lower() for p in parts)


@non_empty
def normalise_phone(s):
    digits = re.sub(r"\D", "", s)
    if digits.startswith("00"):
        digits = digits[2:]
    return "+" + digits if len(digits) > 10 else digits


for raw in ["  ada   LOVELACE ", "grace_hopper", "o'NEIL"]:
    print(repr(normalise_name(raw)))
for raw in ["(555) 123-4567", "0044 20 7946 0958", "+1-202-555-0143"]:
    print(normalise_phone(raw))
for fn in (normalise_name, normalise_phone):
    try:
        fn("   ")
    except ValueError as e:
        print("ValueError:", e)
