"""Generator-based consumers primed by a decorator, fed with send()."""
import functools


def primed(func):
    @functools.wraps(func)
    def start(*args, **kwargs):
        gen = func(*args, **kwargs)
        next(gen)
        return gen
    return start


@primed
def grep(pattern, target):
    """Pass on lines containing pattern."""
    while True:
        line = yield
        if pattern in line:
            target.send(line)


@primed
def collector(store):
    while True:
        item = yield
        store.append(item.upper())


@primed
def counter(name):
    seen = 0
    try:
        while True:
            yield
            seen += 1
    finally:
        print(f"{name} saw {seen} lines")


found = []
sink = grep("error", collector(found))
tally = counter("tally")
for line in ["ok start", "error: disk full", "ok write", "error: timeout", "done"]:
    sink.send(line)
    tally.send(line)
print(found)
print(grep.__name__, grep.__doc__)
tally.close()
