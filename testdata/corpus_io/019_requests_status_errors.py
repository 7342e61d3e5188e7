import os
import requests

base = os.environ["SITE_URL"]
for path in ["/status/404", "/status/403", "/status/204", "/api/users/1.json"]:
    r = requests.get(base + path)
    try:
        r.raise_for_status()
        print(path, "ok", r.status_code, len(r.content))
    except requests.exceptions.HTTPError as e:
        print(path, "error", r.status_code, str(e).replace(base, "SITE"))
