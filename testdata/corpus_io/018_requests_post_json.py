import os
import requests

base = os.environ["SITE_URL"]
r = requests.post(f"{base}/echo", json={"name": "widget", "qty": 3}, headers={"X-Token": "t-123"}, params={"dry": "1"})
body = r.json()
print(r.status_code, body["method"], body["query"], body["content_type"], body["x_token"])
print(body["body"])
