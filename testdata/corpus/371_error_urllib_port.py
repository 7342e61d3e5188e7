from urllib.parse import urlparse

# Service endpoints from a config; one has a port out of range.
endpoints = [
    "http://db.internal:5432/",
    "https://cache.internal:6379",
    "http://queue.internal:99999/",
]
for e in endpoints:
    p = urlparse(e)
    print(p.scheme, p.hostname, p.netloc)
    print("  port:", p.port)
