import base64
import json

def encode_payload(payload: dict) -> bytes:
    raw = json.dumps(payload, sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw)

def decode_payload(token: bytes) -> dict:
    return json.loads(base64.urlsafe_b64decode(token))

payloads = [{"user": "ada", "roles": ["admin"]}, {"n": 1}, {}]
for p in payloads:
    token = encode_payload(p)
    back = decode_payload(token)
    print(token, back == p, len(token) % 4 == 0)

# Bytes print in their b'...' form, also inside containers
print(base64.b64encode(b"x"), [base64.b64encode(b"ab")], {"k": base64.b16encode(b"\xff")})
print(base64.b64decode("aGVsbG8gd29ybGQ="))
print(str(base64.b64encode(b"hi")), repr(base64.b64decode(b"aGk=")))

# Basic auth header, built and parsed back
user, password = "agent", "s3cr3t:pw"
header = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
print(header)
scheme, _, value = header.partition(" ")
name, _, secret = base64.b64decode(value).decode().partition(":")
print(scheme, name, secret)

# Padding: every length of input
for n in range(6):
    data = bytes(range(65, 65 + n))
    enc = base64.b64encode(data)
    print(n, data, enc, enc.count(b"="), base64.b64decode(enc) == data)
