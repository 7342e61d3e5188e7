"""A line-protocol parser as a generator state machine fed with send()."""


def protocol_parser():
    """Messages look like: BEGIN <name> / key=value lines / END."""
    messages = []
    reply = None
    while True:
        line = yield reply
        reply = None
        if not line.startswith("BEGIN "):
            reply = f"ignored {line!r}"
            continue
        name = line[6:]
        fields = {}
        while True:
            line = yield f"reading {name}"
            if line == "END":
                break
            key, sep, value = line.partition("=")
            if not sep:
                fields.setdefault("_errors", []).append(line)
                continue
            fields[key] = value
        messages.append((name, fields))
        reply = f"parsed {name} with {len(fields)} fields (total {len(messages)})"


parser = protocol_parser()
next(parser)
stream = ["hello", "BEGIN order", "id=17", "qty=3", "END", "BEGIN ping", "oops", "END", "BEGIN half", "a=1"]
for line in stream:
    reply = parser.send(line)
    print(f"{line:12} -> {reply}")
parser.close()
print(next(parser, "parser closed"))
