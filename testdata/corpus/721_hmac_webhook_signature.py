"""Sign and verify webhook payloads with hmac, as agents do for APIs."""
import hashlib
import hmac
import json

SECRET = b"whsec_test_123"


def sign(payload: dict, ts: int) -> str:
    body = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    message = f"{ts}.{body}".encode("utf-8")
    return hmac.new(SECRET, message, hashlib.sha256).hexdigest()


def verify(payload: dict, ts: int, signature: str) -> bool:
    return hmac.compare_digest(sign(payload, ts), signature)


event = {"id": "evt_1", "type": "invoice.paid", "amount": 4200}
sig = sign(event, 1700000000)
print(sig)
print(verify(event, 1700000000, sig))
print(verify({**event, "amount": 1}, 1700000000, sig))

# streaming update and copy
h = hmac.new(b"key", digestmod="sha1")
for chunk in [b"part1,", b"part2,", b"part3"]:
    h.update(chunk)
snapshot = h.copy()
snapshot.update(b"!")
print(h.name, h.digest_size, h.block_size)
print(h.hexdigest(), snapshot.hexdigest())
print(hmac.digest(b"key", b"part1,part2,part3", "sha1").hex() == h.hexdigest())
# long keys are hashed first; md5 and sha512 too
print(hmac.new(b"k" * 100, b"data", hashlib.md5).hexdigest())
print(hmac.new(b"k", b"data", "sha512").hexdigest()[:32])
for bad in [lambda: hmac.new(b"k", b"m"), lambda: hmac.new("k", b"m", "sha256"),
            lambda: hmac.new(b"k", "m", "sha256"), lambda: hmac.new(b"k", b"m", "sha999")]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
