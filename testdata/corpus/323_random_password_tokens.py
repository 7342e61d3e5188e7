# Generate reproducible test tokens and passwords.
import random
import string

random.seed(7)


def token(n: int) -> str:
    alphabet = string.ascii_lowercase + string.digits
    return "".join(random.choice(alphabet) for _ in range(n))


def password(length: int = 12) -> str:
    pools = [string.ascii_lowercase, string.ascii_uppercase, string.digits, "!@#$%"]
    chars = [random.choice(pool) for pool in pools]
    everything = "".join(pools)
    chars += [random.choice(everything) for _ in range(length - len(chars))]
    random.shuffle(chars)
    return "".join(chars)


for _ in range(3):
    print(token(10))
for n in (8, 12, 16):
    pw = password(n)
    print(n, pw, any(c.isdigit() for c in pw), any(c.isupper() for c in pw))
print(hex(random.getrandbits(64)))
print(random.randrange(1000, 10000))
