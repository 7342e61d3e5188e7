budget = 1_500_000
rate = 0.000_5
mask = 0xFF_FF
flags = 0b1010_0101
perm = 0o755
big = 1_000_000_000_000

print(budget, rate, mask, flags, perm, big)
print(budget * rate)
print(1e3, 2.5e-3, 1E6, .5, 5., 0.1e1)
print(0x10 + 0o10 + 0b10 + 10)
print(int("1_000"), float("1_000.5"))
print(10_000 // 3, 10_000 % 3, -7 // 2, -7 % 2, 7 // -2)
print(7 / 2, 8 / 2, 1 / 8, type(8 / 2).__name__)
print(3 * 1.1, 0.1 * 3, 1.1 + 2.2)
print(round(2.675 * 100) / 100, int(-3.9), int(3.9), float(7))
print(10 ** 20, 10.0 ** 20, 2 ** 53 + 1, float(2 ** 53 + 1))
