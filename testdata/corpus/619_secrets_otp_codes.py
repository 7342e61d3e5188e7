import secrets
import string


def otp(n=6):
    return "".join(secrets.choice(string.digits) for _ in range(n))


def recovery_codes(count=5):
    alphabet = string.ascii_uppercase + string.digits
    codes = []
    while len(codes) < count:
        code = "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3))
        if code not in codes:
            codes.append(code)
    return codes


codes = [otp() for _ in range(10)]
print(all(len(c) == 6 and c.isdigit() for c in codes))
rec = recovery_codes()
print(len(rec), [len(c) for c in rec], all(c.count("-") == 2 for c in rec))
nonce = secrets.token_bytes(12)
print(len(nonce), type(nonce).__name__, len(nonce.hex()))
print(secrets.randbits(1) in (0, 1), secrets.DEFAULT_ENTROPY)
for bad in (0, -1):
    try:
        secrets.randbelow(bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    secrets.choice([])
except IndexError as e:
    print("IndexError:", e)
