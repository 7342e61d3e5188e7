import os
import requests

base = os.environ["SITE_URL"]
for path in ["/index.html", "/status/404", "/api/items.json"]:
    r = requests.head(base + path)
    print(path, r.status_code, r.ok, bool(r), r.headers.get("Content-Type"))
