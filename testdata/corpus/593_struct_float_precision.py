"""How floats survive half, single and double precision."""
import math
import struct


def through(code, x):
    return struct.unpack("<" + code, struct.pack("<" + code, x))[0]


values = [0.1, 1 / 3, 2.5, 65504.0, 65519.0, 1e-5, 6e-8, 3e-8, -0.0, 1e10, math.pi]
print(f"{'value':>22} {'half':>22} {'single':>22} {'double':>22}")
for x in values:
    row = [repr(x)]
    for code in "efd":
        try:
            row.append(repr(through(code, x)))
        except OverflowError as e:
            row.append("overflow")
    print(" ".join(f"{c:>22}" for c in row))

for x in [math.inf, -math.inf, math.nan]:
    print(x, [through(c, x) for c in "efd"], struct.pack(">e", x).hex(), struct.pack(">d", x).hex())

# Half floats round to nearest, ties to even.
for x in [2048.0, 2049.0, 2050.0, 2051.0, 2052.0, 2053.0]:
    print(x, "->", through("e", x), struct.pack(">e", x).hex())

print("bits of 1.0:", struct.pack(">d", 1.0).hex(), struct.pack(">f", 1.0).hex(), struct.pack(">e", 1.0).hex())
print("smallest half subnormal:", through("e", 2.0 ** -24), "half of it:", through("e", 2.0 ** -25))
print(math.isclose(through("f", 0.1), 0.1, rel_tol=1e-7), through("f", 0.1) == 0.1)
