VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]


def to_roman(n: int) -> str:
    if not 0 < n < 4000:
        raise ValueError(f"out of range: {n}")
    out = []
    for value, numeral in VALUES:
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


def from_roman(s: str) -> int:
    single = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(s):
        v = single[ch]
        if i + 1 < len(s) and single[s[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


for n in [1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999]:
    r = to_roman(n)
    assert from_roman(r) == n
    print(n, r)
try:
    to_roman(0)
except ValueError as e:
    print("error:", e)
