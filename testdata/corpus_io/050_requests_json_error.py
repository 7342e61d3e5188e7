import os
import requests

base = os.environ["SITE_URL"]
r = requests.get(base + "/index.html")
try:
    r.json()
except requests.exceptions.JSONDecodeError:
    print("not JSON:", r.headers["Content-Type"])
except ValueError:
    print("ValueError")
