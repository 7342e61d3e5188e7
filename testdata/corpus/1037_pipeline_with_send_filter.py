"""A push-style pipeline: source pushes into coroutine stages with send()."""


def coroutine(fn):
    def start(*args):
        gen = fn(*args)
        next(gen)
        return gen
    return start


@coroutine
def parse(target):
    while True:
        line = yield
        name, _, value = line.partition("=")
        target.send((name.strip(), value.strip()))


@coroutine
def only_numeric(target):
    while True:
        name, value = yield
        if value.replace(".", "", 1).isdigit():
            target.send((name, float(value)))


@coroutine
def broadcast(*targets):
    try:
        while True:
            item = yield
            for t in targets:
                t.send(item)
    finally:
        for t in targets:
            t.close()


@coroutine
def store(results, transform=lambda x: x):
    try:
        while True:
            results.append(transform((yield)))
    except GeneratorExit:
        print(f"store closing with {len(results)} items")


raw, scaled = [], []
sinks = broadcast(store(raw), store(scaled, lambda kv: (kv[0], kv[1] * 10)))
pipe = parse(only_numeric(sinks))
for line in ["cpu = 0.5", "host = db1", "mem=12", "disk = 3.25", "ver = 1.2.3"]:
    pipe.send(line)
print(raw)
print(scaled)
pipe.close()
print("pipeline head closed; sinks still open")
sinks.close()
print("all closed")
