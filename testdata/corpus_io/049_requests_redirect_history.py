import os
import requests

base = os.environ["SITE_URL"]
r = requests.get(base + "/moved")
print(r.status_code, r.url.replace(base, "SITE"), [h.status_code for h in r.history])
r = requests.get(base + "/moved", allow_redirects=False)
print(r.status_code, r.headers["Location"], r.is_redirect)
