"""Parsing URLs with urllib.parse into a small record class and grouping them by host."""
from urllib.parse import urlparse, parse_qs


class Link:
    def __init__(self, url):
        parts = urlparse(url)
        self.scheme, self.host, self.path = parts.scheme, parts.hostname, parts.path or "/"
        self.query = {k: v[0] if len(v) == 1 else v for k, v in parse_qs(parts.query).items()}

    def __repr__(self):
        return f"Link({self.host}{self.path}, {self.query})"


URLS = ["https://example.org/search?q=python&page=2", "http://example.org/", "https://api.dev/v1/items?id=1&id=2",
        "https://api.dev/v1/users"]
links = [Link(u) for u in URLS]
for l in links:
    print(l)
by_host = {}
for l in links:
    by_host.setdefault(l.host, []).append(l.path)
print(by_host, sorted({l.scheme for l in links}))
