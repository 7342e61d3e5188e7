import base64

svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#c00"/></svg>'
uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
print(uri[:60] + "...", len(uri))

def parse_data_uri(uri: str):
    if not uri.startswith("data:"):
        raise ValueError("not a data URI")
    meta, _, data = uri[5:].partition(",")
    media, _, enc = meta.partition(";")
    raw = base64.b64decode(data) if enc == "base64" else data.encode()
    return media, raw

media, raw = parse_data_uri(uri)
print(media, len(raw), raw.decode() == svg)
media, raw = parse_data_uri("data:text/plain,hello")
print(media, raw.decode())

# encodebytes wraps lines at 76 characters, as MIME wants
blob = ("lorem ipsum dolor sit amet " * 6).encode()
wrapped = base64.encodebytes(blob).decode()
lines = wrapped.splitlines()
print(len(lines), [len(l) for l in lines])
print(base64.decodebytes(wrapped.encode()) == blob)
