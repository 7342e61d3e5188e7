import json
import os
from urllib.request import urlopen

base = os.environ["SITE_URL"]
with urlopen(base + "/api/users/2.json") as resp:
    print(resp.status, resp.headers["Content-Type"])
    user = json.loads(resp.read().decode("utf-8"))
print(user["name"], "lives in", user["city"])
