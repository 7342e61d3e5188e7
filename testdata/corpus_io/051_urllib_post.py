import json
import os
import urllib.request

base = os.environ["SITE_URL"]
req = urllib.request.Request(base + "/echo", data=json.dumps({"a": 1}).encode(), headers={"Content-Type": "application/json"}, method="PUT")
with urllib.request.urlopen(req) as resp:
    body = json.load(resp)
print(body["method"], body["content_type"], body["body"])
