def cmd_add(a, b):
    return a + b


def cmd_neg(a):
    return -a


COMMANDS = {"add": cmd_add, "neg": cmd_neg, "upper": str.upper, "version": "1.2.3", "count": len}


def run(line: str):
    name, *args = line.split()
    target = COMMANDS.get(name)
    if target is None:
        return f"unknown command {name!r}"
    if not callable(target):
        return f"{name} = {target}"
    converted = [int(a) if a.lstrip("-").isdigit() else a for a in args]
    try:
        return target(*converted)
    except TypeError as e:
        return f"bad arguments for {name}: {type(e).__name__}"


for line in ["add 2 3", "neg -7", "upper héllo", "version", "count abcdef", "add 1", "nope x"]:
    print(f"{line:<14} -> {run(line)!r}")
print(sorted(k for k, v in COMMANDS.items() if callable(v)))
