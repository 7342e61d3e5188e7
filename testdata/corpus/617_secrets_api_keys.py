import secrets
import hashlib

users = ["alice", "bob", "carol", "dave"]
keys = {u: secrets.token_urlsafe(24) for u in users}
hashed = {u: hashlib.sha256(k.encode()).hexdigest() for u, k in keys.items()}


def check(user, presented):
    expected = hashed.get(user)
    if expected is None:
        return False
    return secrets.compare_digest(hashlib.sha256(presented.encode()).hexdigest(), expected)


print([len(k) for k in keys.values()])
print(check("alice", keys["alice"]), check("alice", keys["bob"]), check("eve", "x"))
print(len(set(keys.values())) == len(users), all(len(h) == 64 for h in hashed.values()))
session = secrets.token_hex(32)
print(len(session), session.isalnum())
