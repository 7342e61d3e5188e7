import os
import urllib.error
import urllib.request

base = os.environ["SITE_URL"]
try:
    urllib.request.urlopen(base + "/status/404")
except urllib.error.HTTPError as e:
    print("HTTPError", e.code, e.reason)
