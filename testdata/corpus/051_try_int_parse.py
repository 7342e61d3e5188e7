def parse_int(s: str, default: int = 0) -> int:
    try:
        return int(s)
    except ValueError:
        return default


inputs = ["42", " 17 ", "-3", "3.5", "abc", "", "1_000", "0x1A", "+8"]
for s in inputs:
    print(f"{s!r:>8} -> {parse_int(s, -1)}")

total = 0
bad = []
for token in "10 20 x 30 4.5 y 40".split():
    try:
        total += int(token)
    except ValueError as e:
        bad.append(token)
        print("skipping:", e)
print("total:", total, "bad:", bad)
