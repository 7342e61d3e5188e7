def parse_qs(query: str) -> dict:
    params = {}
    for pair in query.lstrip("?").split("&"):
        if not pair:
            continue
        key, _, value = pair.partition("=")
        value = value.replace("+", " ")
        params.setdefault(key, []).append(value)
    return {k: v[0] if len(v) == 1 else v for k, v in params.items()}


def build_qs(params: dict) -> str:
    parts = []
    for key in sorted(params):
        values = params[key] if isinstance(params[key], list) else [params[key]]
        for v in values:
            parts.append(f"{key}={str(v).replace(' ', '+')}")
    return "?" + "&".join(parts) if parts else ""


q = "?q=python+tips&page=2&tag=go&tag=rust&empty=&flag"
parsed = parse_qs(q)
print(parsed)
print(build_qs(parsed))
print(build_qs({"limit": 10, "sort": "name asc"}), repr(build_qs({})))
print(parse_qs(""), parse_qs("a=1&a=2&a=3"))
