from urllib.parse import ParseResult, SplitResult, urlparse, urlunparse, urlencode, parse_qs

# Rebuild links from their parts, as a crawler does.
base = urlparse("https://shop.example.com/items/42;v=2?ref=home&utm_source=x#reviews")
print(base)
query = {k: v for k, v in parse_qs(base.query).items() if not k.startswith("utm_")}
clean = base._replace(query=urlencode(query, doseq=True), fragment="")
print(urlunparse(clean))

made = ParseResult(scheme="http", netloc="user:pw@host:8080", path="/a b", params="", query="q=1", fragment="top")
print(made.geturl(), made.hostname, made.port, made.username, made.password)
split = SplitResult("ftp", "files.example.org", "/pub/file.txt", "", "")
print(split.geturl(), isinstance(split, SplitResult), isinstance(base, ParseResult), isinstance(split, ParseResult))
print(list(made), made[2], len(split))
try:
    SplitResult("a", "b")
except TypeError as e:
    print("TypeError:", e)
