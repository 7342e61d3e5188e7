import base64

samples = ["", "f", "fo", "foo", "foob", "fooba", "foobar"]
print(f"{'text':<8}{'b16':<14}{'b32':<18}{'b64':<10}{'b85'}")
for s in samples:
    b = s.encode()
    print(f"{s!r:<8}{base64.b16encode(b).decode():<14}{base64.b32encode(b).decode():<18}"
          f"{base64.b64encode(b).decode():<10}{base64.b85encode(b).decode()}")

# Round trips over every byte value
data = bytes(range(256))
for name, enc, dec in [
    ("b16", base64.b16encode, base64.b16decode),
    ("b32", base64.b32encode, base64.b32decode),
    ("b32hex", base64.b32hexencode, base64.b32hexdecode),
    ("b64", base64.b64encode, base64.b64decode),
    ("urlsafe", base64.urlsafe_b64encode, base64.urlsafe_b64decode),
    ("b85", base64.b85encode, base64.b85decode),
]:
    encoded = enc(data)
    print(f"{name:<8} {len(encoded):>4} chars, round trip {dec(encoded) == data}")
print(base64.b32decode("mzxw6===", casefold=True).decode(), base64.b16decode("666f6f", casefold=True).decode())
