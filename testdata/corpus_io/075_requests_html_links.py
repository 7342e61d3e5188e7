import os
import re
import requests

base = os.environ["SITE_URL"]
html = requests.get(base + "/").text
links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', html)
external = [href for href, _ in links if href.startswith("http")]
print(len(links), "links,", len(external), "external")
for href, text in links:
    print(f"{text:<14} {href}")
