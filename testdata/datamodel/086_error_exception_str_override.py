# An exception class with __str__ controls how print, str() and the
# traceback's last line show it; repr keeps the args.
class HTTPError(Exception):
    def __init__(self, status, url):
        super().__init__(status, url)
        self.status, self.url = status, url

    def __str__(self):
        return f"HTTP {self.status} for {self.url}"


e = HTTPError(404, "/x")
print(e, "|", str(e), "|", repr(e), "|", e.args)
print(f"{e}", [e])
raise HTTPError(500, "/api")
