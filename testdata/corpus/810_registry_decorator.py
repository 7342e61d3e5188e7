"""Command handlers registered into a dict by a decorator, dispatched by name."""
HANDLERS = {}


def command(name=None, *, aliases=()):
    def register(func):
        key = name or func.__name__
        HANDLERS[key] = func
        for alias in aliases:
            HANDLERS[alias] = func
        return func
    return register


@command()
def add(args):
    return sum(int(a) for a in args)


@command("mul", aliases=("times", "x"))
def multiply(args):
    result = 1
    for a in args:
        result *= int(a)
    return result


@command(aliases=("echo",))
def say(args):
    return " ".join(args)


def run(line):
    name, *args = line.split()
    handler = HANDLERS.get(name)
    if handler is None:
        return f"unknown command {name!r}"
    return f"{handler.__name__}: {handler(args)}"


for line in ["add 1 2 3", "mul 2 3 4", "x 5 5", "echo hello world", "div 4 2"]:
    print(run(line))
print(sorted(HANDLERS))
print(multiply(["7", "6"]), HANDLERS["times"] is multiply)
