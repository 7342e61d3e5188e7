import secrets
import string

alphabet = string.ascii_letters + string.digits + "!@#$%"


def make_password(length=16):
    while True:
        pw = "".join(secrets.choice(alphabet) for _ in range(length))
        if (any(c.islower() for c in pw) and any(c.isupper() for c in pw)
                and sum(c.isdigit() for c in pw) >= 2):
            return pw


pws = [make_password(n) for n in (12, 16, 24)]
print([len(p) for p in pws], all(set(p) <= set(alphabet) for p in pws))

tok = secrets.token_hex(16)
print(len(tok), int(tok, 16) < 2 ** 128, tok == tok.lower())
url = secrets.token_urlsafe(32)
print(len(url), set(url) <= set(string.ascii_letters + string.digits + "-_"))
raw = secrets.token_bytes(20)
print(type(raw).__name__, len(raw), len(raw.hex()))

api_keys = {f"key-{i}": secrets.token_hex(8) for i in range(5)}
print(len(set(api_keys.values())), sorted(api_keys))
stored = api_keys["key-3"]
print(secrets.compare_digest(stored, api_keys["key-3"]), secrets.compare_digest(stored, "0" * 16))

rolls = [secrets.randbelow(6) + 1 for _ in range(500)]
print(min(rolls) >= 1, max(rolls) <= 6, len(rolls))
print(0 <= secrets.randbits(16) < 65536)
code = f"{secrets.randbelow(10**6):06d}"
print(len(code), code.isdigit())
