UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """Parse '1h30m', '45s', '2d 4h' into seconds."""
    total = 0
    number = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            number += ch
        elif ch in UNITS:
            if not number:
                raise ValueError(f"unit {ch!r} without a number in {text!r}")
            total += int(number) * UNITS[ch]
            number = ""
        else:
            raise ValueError(f"unknown unit {ch!r} in {text!r}")
    if number:
        raise ValueError(f"trailing number without unit in {text!r}")
    return total


for text in ["1h30m", "45s", "2d 4h", "90m", "1d1h1m1s", "10", "5x", "h"]:
    try:
        secs = parse_duration(text)
        print(f"{text:<10} {secs:>7} s  = {secs / 3600:.2f} h")
    except ValueError as e:
        print(f"{text:<10} error: {e}")
