from urllib.parse import urlparse, parse_qsl, urlencode, urlunparse

TRACKING = {"utm_source", "utm_medium", "utm_campaign", "fbclid", "gclid", "ref"}

def clean_url(url: str) -> str:
    p = urlparse(url)
    kept = [(k, v) for k, v in parse_qsl(p.query, keep_blank_values=True) if k.lower() not in TRACKING]
    return p._replace(query=urlencode(kept), fragment="").geturl()

urls = [
    "https://shop.example.com/item/42?utm_source=news&utm_medium=email&color=red",
    "https://example.com/article?id=7&fbclid=abc123#comments",
    "https://example.com/?gclid=x&UTM_CAMPAIGN=y",
    "https://example.com/search?q=a+b&ref=home&page=2",
    "http://example.com/plain",
]
for u in urls:
    c = clean_url(u)
    print(f"{len(u):>3} -> {len(c):>3} {c}")

p = urlparse(urls[0])
print(urlunparse((p.scheme, p.netloc.upper(), p.path, "", "", "")))
print(p._replace(scheme="http", netloc="mirror.example.com").geturl())
