import hashlib

def bucket(user_id: str, experiment: str, buckets: int = 100) -> int:
    """Deterministic bucket for a user in an experiment."""
    digest = hashlib.md5(f"{experiment}:{user_id}".encode()).hexdigest()
    return int(digest[:8], 16) % buckets

def variant(user_id, experiment, split=(50, 30, 20), names=("control", "blue", "green")):
    b = bucket(user_id, experiment)
    edge = 0
    for share, name in zip(split, names):
        edge += share
        if b < edge:
            return name
    return names[-1]

users = [f"user{n:03d}" for n in range(1, 41)]
counts = {}
for u in users:
    v = variant(u, "checkout-button")
    counts[v] = counts.get(v, 0) + 1
print("assignments:", dict(sorted(counts.items())))
print("stable:", all(variant(u, "checkout-button") == variant(u, "checkout-button") for u in users))
for u in users[:5]:
    print(u, bucket(u, "checkout-button"), bucket(u, "pricing"), variant(u, "checkout-button"))

# Sharding keys across 4 servers
shards = {}
for key in ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]:
    shard = int(hashlib.sha256(key.encode()).hexdigest(), 16) % 4
    shards.setdefault(shard, []).append(key)
print(sorted(shards.items()))
