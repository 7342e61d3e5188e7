import re
from urllib.parse import urljoin, urldefrag, urlparse

page_url = "https://blog.example.com/2024/05/post.html?ref=home"
page = """
<a href="next.html">Next</a> <a href="../04/older.html">Older</a>
<a href="/about">About</a> <a href="//static.example.com/style.css">CSS</a>
<a href="#comments">Comments</a> <a href="post.html#top">Top</a>
<a href="https://other.org/page">Other</a> <a href="?page=2">Page 2</a>
<a href="../../">Home</a> <a href="./">Index</a> <a href="mailto:me@example.com">Mail</a>
"""

hrefs = re.findall(r'href="([^"]*)"', page)
seen = []
for href in hrefs:
    absolute = urljoin(page_url, href)
    clean, frag = urldefrag(absolute)
    host = urlparse(clean).hostname
    internal = host == "blog.example.com"
    print(f"{href:<32} {absolute:<52} {'internal' if internal else 'external'}")
    if internal and clean not in seen:
        seen.append(clean)
print(len(hrefs), "links,", len(seen), "distinct internal pages")
for s in seen:
    print(" ", s)
