"""Number methods agents reach for: is_integer, as_integer_ratio, bit_count, hex."""

def describe(x: float) -> str:
    if x.is_integer():
        return f"{x} is whole ({int(x)})"
    num, den = x.as_integer_ratio()
    return f"{x} = {num}/{den}"

for value in [3.0, 2.5, 0.75, -1.25, 1e3]:
    print(describe(value))

averages = [sum(xs) / len(xs) for xs in ([2, 4], [1, 2], [5, 5, 5])]
print([int(a) if a.is_integer() else a for a in averages])

flags = [0b1011, 255, 1024, 0, 7]
for f in flags:
    print(f"{f:>5} bits set: {f.bit_count()} length: {f.bit_length()}")

print((0.1).hex(), (1.0).hex(), float.fromhex("0x1.8p1"))
n = 12
print(n.real, n.imag, n.numerator, n.denominator, (2.5).real, (2.5).imag)
print(sorted([3.5, 2.0, 7.0, 1.25], key=lambda v: (not v.is_integer(), v)))
