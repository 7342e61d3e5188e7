# Totals with a starting value, and modular arithmetic with pow
balances = [120.50, -30.25, 75.00, -12.75]
opening = 1000.0
print(sum(balances, opening))
print(sum((b for b in balances if b < 0), 0.0))
print(sum([[1], [2, 3], []], [0]))
print(sum(range(10), -45))


def checksum(data: str, mod: int = 65521) -> int:
    a, b = 1, 0
    for ch in data:
        a = (a + ord(ch)) % mod
        b = (b + a) % mod
    return b * 65536 + a


print(checksum("Wikipedia"), hex(checksum("Wikipedia")))
p, q, e = 61, 53, 17
n, phi = p * q, (p - 1) * (q - 1)
d = pow(e, -1, phi)
message = 65
cipher = pow(message, e, n)
print(n, d, cipher, pow(cipher, d, n))
print(pow(10, 18, 97), pow(3, 0, 7), pow(-3, 3, 7))
