import os
import requests

base = os.environ["SITE_URL"]
with requests.Session() as s:
    s.headers.update({"X-Token": "sess-1"})
    a = s.get(base + "/echo").json()
    b = s.post(base + "/echo", data={"q": "widgets", "page": 2}).json()
print(a["method"], a["x_token"])
print(b["method"], b["x_token"], b["content_type"], b["body"])
