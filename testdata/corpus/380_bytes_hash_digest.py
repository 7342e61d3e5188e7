import hashlib

def fingerprint(text: str) -> str:
    """Short fingerprint of a text: the first 8 bytes of its SHA-256, in hex."""
    return hashlib.sha256(text.encode("utf-8")).digest()[:8].hex()

documents = {
    "readme": "onetool runs Python programs",
    "license": "MIT License",
    "empty": "",
    "unicode": "naïve café",
}
for name, body in documents.items():
    digest = hashlib.sha256(body.encode()).digest()
    assert digest.hex() == hashlib.sha256(body.encode()).hexdigest()
    print(f"{name:<8} {len(digest)} bytes  {fingerprint(body)}  first byte {digest[0]:3d}")

# A digest is bytes: indexing gives ints, slices give bytes
d = hashlib.md5(b"abc").digest()
print(d[:4], d[0], type(d[0]).__name__, type(d[:1]).__name__)
print(d.hex(" ", 4))

# Incremental hashing equals hashing all at once
h = hashlib.sha1()
for chunk in [b"hello ", b"wor", b"ld"]:
    h.update(chunk)
print(h.hexdigest() == hashlib.sha1(b"hello world").hexdigest(), h.digest_size)

# Leading zero bits of a digest, counted byte by byte
def leading_zero_bits(digest: bytes) -> int:
    bits = 0
    for byte in digest:
        if byte == 0:
            bits += 8
            continue
        bits += 8 - byte.bit_length()
        break
    return bits

for nonce in range(200):
    digest = hashlib.sha256(f"block-{nonce}".encode()).digest()
    if leading_zero_bits(digest) >= 5:
        print("nonce", nonce, digest[:3].hex(), leading_zero_bits(digest))
