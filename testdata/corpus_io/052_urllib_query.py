import json
import os
from urllib.parse import urlencode
from urllib.request import urlopen

base = os.environ["SITE_URL"]
qs = urlencode({"city": "São Paulo", "n": 2})
print(json.loads(urlopen(f"{base}/echo?{qs}").read())["query"])
