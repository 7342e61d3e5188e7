import hashlib

# A log streamed in chunks: the running hash equals the hash of the whole.
lines = [f"2024-05-0{d} INFO request {i} ok\n" for d in range(1, 4) for i in range(3)]
whole = "".join(lines).encode()

running = hashlib.sha256()
checkpoints = []
for n, line in enumerate(lines, 1):
    running.update(line.encode())
    if n % 3 == 0:
        # copy() gives the digest so far without disturbing the running hash
        checkpoints.append((n, running.copy().hexdigest()[:10]))

print("chunks:", len(lines), "bytes:", len(whole))
print("streamed == whole:", running.hexdigest() == hashlib.sha256(whole).hexdigest())
for n, digest in checkpoints:
    prefix = "".join(lines[:n]).encode()
    print(n, digest, digest == hashlib.sha256(prefix).hexdigest()[:10])

for name in ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256"]:
    h = hashlib.new(name, whole)
    print(f"{h.name:<9} size={h.digest_size:<3} block={h.block_size:<4} {h.hexdigest()[:16]}")
