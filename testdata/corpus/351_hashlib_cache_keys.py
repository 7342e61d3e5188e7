import hashlib
import json

def cache_key(endpoint: str, params: dict) -> str:
    """A stable key for a request: the same parameters in any order give the same key."""
    canonical = json.dumps({"endpoint": endpoint, "params": params}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(canonical.encode()).hexdigest()[:16]

cache = {}
calls = 0

def fetch(endpoint, **params):
    global calls
    key = cache_key(endpoint, params)
    if key not in cache:
        calls += 1
        cache[key] = f"result #{calls} for {endpoint}"
    return key, cache[key]

requests = [
    ("/search", {"q": "go", "page": 1}),
    ("/search", {"page": 1, "q": "go"}),
    ("/search", {"q": "go", "page": 2}),
    ("/user", {"id": 42}),
    ("/user", {"id": 42}),
]
for endpoint, params in requests:
    key, result = fetch(endpoint, **params)
    print(f"{endpoint:<8} {json.dumps(params, sort_keys=True):<24} {key} -> {result}")
print(f"{len(requests)} requests, {calls} real calls, {len(cache)} cached")
