import os
import re
import requests
from urllib.parse import urljoin, urlparse

base = os.environ["SITE_URL"]
seen, queue, titles = set(), [base + "/"], {}
while queue:
    url = queue.pop(0)
    if url in seen:
        continue
    seen.add(url)
    r = requests.get(url)
    if "html" not in r.headers.get("Content-Type", ""):
        continue
    m = re.search(r"<title>(.*?)</title>", r.text)
    titles[urlparse(url).path] = m.group(1) if m else "?"
    for href in re.findall(r'href="([^"]+)"', r.text):
        nxt = urljoin(url, href)
        if nxt.startswith(base) and nxt not in seen:
            queue.append(nxt)
for path in sorted(titles):
    print(path, "->", titles[path])
