print(pow(2, 10), pow(2, -2), pow(2.5, 2), pow(9, 0.5))
print(pow(3, 200, 1000), pow(7, 128, 13), pow(2, 100, 2 ** 61 - 1))
print(pow(-2, 3), pow(-8, 2), (-8) ** 2)
print(abs(-5), abs(3.25), abs(-0.0), abs(0), abs(-10 ** 20))

def modexp(base, exp, mod):
    result = 1
    base %= mod
    while exp > 0:
        if exp & 1:
            result = result * base % mod
        base = base * base % mod
        exp >>= 1
    return result

for b, e, m in [(4, 13, 497), (2, 1000, 1009), (123, 456, 789)]:
    assert modexp(b, e, m) == pow(b, e, m)
    print(b, e, m, pow(b, e, m))

distances = [-3.5, 2, -0.25, 7]
print(sorted(distances, key=abs), max(distances, key=abs))
