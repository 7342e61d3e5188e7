for n in [0, 1, 7, 8, 255, 1024, -42]:
    print(f"{n:>5} {hex(n):>8} {oct(n):>8} {bin(n):>14}")

print(int("ff", 16), int("0xff", 16), int("777", 8), int("1011", 2), int("0b1011", 0), int("z", 36))
print(hex(2 ** 64), bin(2 ** 10))

def to_base(n: int, base: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    return sign + "".join(reversed(out))

for n, b in [(255, 16), (255, 2), (-100, 7), (123456789, 36)]:
    print(n, b, to_base(n, b), int(to_base(n, b), b) == n)
print(bin(42).count("1"), len(bin(255)) - 2)
