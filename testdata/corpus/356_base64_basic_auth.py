import base64

def basic_auth(user: str, password: str) -> str:
    token = base64.b64encode(f"{user}:{password}".encode("utf-8")).decode("ascii")
    return "Basic " + token

def parse_basic(header: str):
    scheme, _, token = header.partition(" ")
    if scheme != "Basic":
        raise ValueError(f"unsupported scheme {scheme!r}")
    user, _, password = base64.b64decode(token).decode("utf-8").partition(":")
    return user, password

accounts = [("alice", "s3cret"), ("bob", "pässwörd"), ("carol", "a:b:c"), ("", "")]
for user, password in accounts:
    header = basic_auth(user, password)
    back = parse_basic(header)
    print(f"{header:<32} {back} {back == (user, password)}")

for header in ["Bearer abc", "Basic Ym9ndXM="]:
    try:
        print(parse_basic(header))
    except ValueError as e:
        print("rejected:", e)
