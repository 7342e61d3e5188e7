def log(level, *messages, sep=" ", **context):
    text = sep.join(str(m) for m in messages)
    extra = ", ".join(f"{k}={v}" for k, v in context.items())
    return f"[{level}] {text}" + (f" ({extra})" if extra else "")


print(log("INFO", "server", "started"))
print(log("WARN", "disk", 93, "%", sep="", host="db1"))
args = ["ERROR", "request failed"]
kwargs = {"status": 500, "path": "/api"}
print(log(*args, **kwargs))


def point(x, y, z=0):
    return (x, y, z)


print(point(*[1, 2]), point(**{"x": 1, "y": 2, "z": 3}), point(1, *[2], **{"z": 9}))


def stats(*values):
    if not values:
        return None
    return min(values), max(values), sum(values) / len(values)


print(stats(4, 8, 15, 16, 23, 42), stats(), stats(*range(1, 5)))
