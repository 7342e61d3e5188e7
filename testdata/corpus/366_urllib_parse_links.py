from urllib.parse import urlparse

urls = [
    "https://api.github.com/repos/python/cpython/issues?state=open&per_page=50",
    "http://localhost:8080/health",
    "https://user:token@git.example.org:8443/team/repo.git",
    "ftp://files.example.org/pub/readme.txt",
    "HTTPS://WWW.Example.COM/Path/Page.html#Section-2",
    "mailto:support@example.com",
    "//cdn.example.net/lib.js",
    "/relative/path?x=1",
    "http://[2001:db8::1]:9000/metrics",
]

by_host = {}
for u in urls:
    p = urlparse(u)
    default = {"http": 80, "https": 443, "ftp": 21}.get(p.scheme)
    port = p.port or default
    print(f"{p.scheme or '-':<7} {str(p.hostname):<22} {str(port):<5} {p.path:<34} {p.query or '-'}")
    if p.hostname:
        by_host.setdefault(p.hostname.split(".")[-1] if "." in p.hostname else p.hostname, []).append(p.path)

print(sorted(by_host.items()))
p = urlparse(urls[2])
print(p.username, p.password, p.netloc, p)
print(urlparse(urls[4]).fragment, urlparse(urls[5]).path)
