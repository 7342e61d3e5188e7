import os
import requests

base = os.environ["SITE_URL"]
r = requests.get(f"{base}/api/items.json", timeout=5)
r.raise_for_status()
data = r.json()
print(r.status_code, r.ok, data["count"])
for item in sorted(data["items"], key=lambda i: i["price"], reverse=True):
    print(item["name"], item["price"], ",".join(item["tags"]) or "-")
