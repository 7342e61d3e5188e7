import hashlib

# Fingerprints of records with several digest kinds.
records = [b"alice,30,admin", b"bob,25,user", b"carol,41,user"]
for r in records:
    print(hashlib.sha256(r).hexdigest()[:16], hashlib.blake2b(r, digest_size=8).hexdigest(), hashlib.blake2s(r).hexdigest()[:12])

# A keyed BLAKE2 MAC and a personalised hash.
key = b"secret-key"
tag = hashlib.blake2b(b"message", key=key, digest_size=16)
print(tag.hexdigest(), tag.digest_size, tag.name, tag.block_size)
print(hashlib.blake2s(b"data", salt=b"salt", person=b"app").hexdigest())

# Extendable output and password hashing.
print(hashlib.shake_128(b"seed").hexdigest(10), hashlib.shake_256(b"seed").hexdigest(6))
dk = hashlib.pbkdf2_hmac("sha256", b"correct horse", b"NaCl", 2000)
print(len(dk), dk.hex()[:32])
print(hashlib.pbkdf2_hmac("sha1", b"password", b"salt", 2, dklen=12).hex())

h = hashlib.new("blake2b", digest_size=20)
for chunk in (b"part one, ", b"part two"):
    h.update(chunk)
copy = h.copy()
copy.update(b"!")
print(h.hexdigest(), copy.hexdigest())
print(sorted(hashlib.algorithms_guaranteed))
try:
    hashlib.blake2b(digest_size=100)
except ValueError as e:
    print("ValueError:", e)
