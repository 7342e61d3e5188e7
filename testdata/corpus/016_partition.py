def parse_header(line: str):
    name, sep, value = line.partition(":")
    if not sep:
        return None
    return name.strip().lower(), value.strip()


headers = ["Content-Type: text/html", "X-Count:  42 ", "garbage", "Host: example.com:8080"]
for h in headers:
    print(repr(h), "->", parse_header(h))

path = "archive.tar.gz"
print(path.partition("."))
print(path.rpartition("."))
print("no-dot".rpartition("."))

email = "first.last@mail.example.org"
user, _, domain = email.partition("@")
print(user, domain, domain.split(".")[-1])
