def xor(data: bytes, key: bytes) -> bytes:
    """Repeating-key XOR: the same call encrypts and decrypts."""
    return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))

def checksum(data: bytes) -> int:
    """Adler-32, byte by byte."""
    a, b = 1, 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b << 16) | a

message = "attack at dawn".encode()
key = b"K3y"
secret = xor(message, key)
print(secret, secret.hex())
print(xor(secret, key), xor(secret, key).decode())
print(checksum(message), hex(checksum(b"Wikipedia")))

# Caesar shift on letters only, bytes in and bytes out
def shift(data: bytes, n: int) -> bytes:
    out = []
    for c in data:
        if 97 <= c <= 122:
            out.append((c - 97 + n) % 26 + 97)
        elif 65 <= c <= 90:
            out.append((c - 65 + n) % 26 + 65)
        else:
            out.append(c)
    return bytes(out)

print(shift(b"Hello, World", 3), shift(shift(b"Hello, World", 3), -3))
print(b"Hello".lower(), b"hello".upper(), b" x ".strip(), b"a-b-c".split(b"-"))
print(b"abc" < b"abd", b"abc" * 2, b"ab" + b"cd", 98 in b"abc", b"z" in b"abc")

# Mixing str and bytes is an error, as in Python
for left, right in [(b"a", "b"), ("a", b"b")]:
    try:
        print(left + right)
    except TypeError as e:
        print("TypeError:", e)
try:
    bytes([300])
except ValueError as e:
    print("ValueError:", e)
