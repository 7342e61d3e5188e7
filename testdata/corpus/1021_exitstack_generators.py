"""ExitStack managing several generator-based context managers."""
from contextlib import ExitStack, contextmanager

log = []


@contextmanager
def connection(name):
    log.append(f"connect {name}")
    try:
        yield f"<{name}>"
    finally:
        log.append(f"disconnect {name}")


@contextmanager
def transaction(conn):
    log.append(f"begin {conn}")
    try:
        yield
    except Exception as e:
        log.append(f"rollback {conn} ({e})")
        raise
    else:
        log.append(f"commit {conn}")


def sync(names, fail_on=None):
    with ExitStack() as stack:
        conns = [stack.enter_context(connection(n)) for n in names]
        for c in conns:
            stack.enter_context(transaction(c))
        stack.callback(log.append, "callback ran")
        if fail_on:
            raise ValueError(f"conflict in {fail_on}")
        return len(conns)


print(sync(["db", "cache"]))
print("\n".join(log))
log.clear()
try:
    sync(["db", "cache", "search"], fail_on="search")
except ValueError as e:
    print("sync failed:", e)
print("\n".join(log))
log.clear()
with ExitStack() as outer:
    outer.enter_context(connection("kept"))
    moved = outer.pop_all()
print(log)
moved.close()
print(log)
