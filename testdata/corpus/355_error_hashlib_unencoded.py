import hashlib

# Fingerprint records; the last one is passed as text, not bytes.
records = ["alpha", "beta", "gamma"]
digests = {}
for r in records[:2]:
    digests[r] = hashlib.sha1(r.encode()).hexdigest()[:10]
print(digests)
print(len(digests), "fingerprints so far")
# Forgetting .encode() fails as it does in CPython.
last = records[2]
print(hashlib.sha1(last).hexdigest())
