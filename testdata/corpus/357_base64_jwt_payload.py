import base64
import json

def b64url_decode(part: str) -> bytes:
    # JWTs drop the padding; add it back before decoding.
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))

def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")

header = {"alg": "HS256", "typ": "JWT"}
payload = {"sub": "user-17", "name": "Zoë", "admin": False, "scopes": ["read", "write"], "exp": 1716000000}
token = ".".join([
    b64url_encode(json.dumps(header, separators=(",", ":")).encode()),
    b64url_encode(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()),
    b64url_encode(b"\xfb\xef\xbe not a real signature \xff"),
])
print(token)

parts = token.split(".")
print(len(parts), [len(p) for p in parts])
decoded_header = json.loads(b64url_decode(parts[0]))
decoded_payload = json.loads(b64url_decode(parts[1]).decode("utf-8"))
print(decoded_header)
print(decoded_payload["name"], decoded_payload["scopes"], decoded_payload == payload)
print("signature bytes:", len(b64url_decode(parts[2])))
print("has - or _:", "-" in parts[2] or "_" in parts[2], "has + or /:", "+" in token or "/" in token)
