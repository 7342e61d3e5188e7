class ParseError(ValueError):
    pass


def parse_line(n: int, line: str) -> tuple:
    parts = line.split(":")
    if len(parts) != 2:
        raise ParseError(f"line {n}: expected 'key: value', got {line!r}")
    return parts[0].strip(), parts[1].strip()


text = """name: demo
version: 2
broken line
owner: me"""
for n, line in enumerate(text.splitlines(), start=1):
    key, value = parse_line(n, line)
    print(key, "=", value)
