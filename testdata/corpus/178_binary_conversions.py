def to_binary(n: int) -> str:
    if n == 0:
        return "0"
    bits = []
    while n > 0:
        bits.append(str(n % 2))
        n //= 2
    return "".join(reversed(bits))


def from_binary(s: str) -> int:
    value = 0
    for ch in s:
        if ch not in "01":
            raise ValueError(f"not a binary digit: {ch!r}")
        value = value * 2 + int(ch)
    return value


for n in [0, 1, 2, 5, 10, 255, 1024, 65535]:
    b = to_binary(n)
    assert b == bin(n)[2:] and from_binary(b) == n
    print(f"{n:>6} {b:>17} ones={b.count('1')}")

try:
    from_binary("10201")
except ValueError as e:
    print(e)
print(from_binary("1" * 64), 2 ** 64 - 1)
print(f"{0b1011 & 0b0110:04b} {0b1011 | 0b0110:04b} {0b1011 ^ 0b0110:04b} {~5} {1 << 10} {1024 >> 3}")
