"""Summarising access-log lines with comprehensions and one small record class."""
import re
from collections import Counter

LOG = """10.0.0.1 GET /index.html 200 512
10.0.0.2 GET /about 404 0
10.0.0.1 POST /login 302 128
10.0.0.3 GET /index.html 200 512
10.0.0.2 GET /index.html 500 0
10.0.0.1 GET /about 200 256"""


class Hit:
    __slots__ = ("ip", "method", "path", "status", "size")

    def __init__(self, ip, method, path, status, size):
        self.ip, self.method, self.path = ip, method, path
        self.status, self.size = int(status), int(size)


hits = [Hit(*line.split()) for line in LOG.splitlines()]
print(len(hits), sum(h.size for h in hits))
by_path = Counter(h.path for h in hits)
print(by_path.most_common(2))
errors = [f"{h.ip} {h.path}" for h in hits if h.status >= 400]
print(errors)
per_ip = {}
for h in hits:
    per_ip.setdefault(h.ip, []).append(h.status)
print({ip: sorted(s) for ip, s in sorted(per_ip.items())})
print(re.sub(r"\d+$", "N", LOG.splitlines()[0]))
print(all(h.method in {"GET", "POST"} for h in hits), hasattr(hits[0], "__dict__"))
