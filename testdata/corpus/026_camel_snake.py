def camel_to_snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper():
            if i > 0 and (not name[i - 1].isupper() or (i + 1 < len(name) and name[i + 1].islower())):
                out.append("_")
            out.append(ch.lower())
        else:
            out.append(ch)
    return "".join(out)


def snake_to_camel(name: str, upper_first: bool = False) -> str:
    parts = name.split("_")
    head = parts[0].capitalize() if upper_first else parts[0]
    return head + "".join(p.capitalize() for p in parts[1:])


for n in ["userId", "HTTPResponseCode", "getHTTPStatus", "simple", "XMLParser"]:
    print(f"{n:18} -> {camel_to_snake(n)}")

for n in ["user_id", "http_response_code", "already"]:
    print(f"{n:18} -> {snake_to_camel(n)} / {snake_to_camel(n, upper_first=True)}")
