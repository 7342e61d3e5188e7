def render(value, indent=0):
    pad = "  " * indent
    t = type(value)
    if t == dict:
        for k, v in value.items():
            if type(v) in (dict, list):
                print(f"{pad}{k}:")
                render(v, indent + 1)
            else:
                print(f"{pad}{k}: {render_scalar(v)}")
    elif t == list:
        for item in value:
            if type(item) in (dict, list):
                print(f"{pad}-")
                render(item, indent + 1)
            else:
                print(f"{pad}- {render_scalar(item)}")
    else:
        print(pad + render_scalar(value))


def render_scalar(v):
    if v is None:
        return "null"
    if type(v) is bool:
        return "true" if v else "false"
    if type(v) is str:
        return repr(v) if v == "" or v.strip() != v else v
    return str(v)


render({"name": "svc", "replicas": 3, "debug": False, "tags": ["a", " b "], "env": {"X": None, "Y": 1.5}, "ports": [{"p": 80}, 443]})
print(type(1) == type(True), type(1) is int, type(2.0).__name__, type("").__name__.upper())
