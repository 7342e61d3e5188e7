import os
import requests

base = os.environ["SITE_URL"]
r = requests.get(base + "/echo", params={"q": "blue widget", "tags": ["a", "b"], "page": 3})
print(r.json()["query"])
print(r.url.replace(base, "SITE"))
