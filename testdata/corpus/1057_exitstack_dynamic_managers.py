"""ExitStack with a variable number of generator-based locks and a failing acquire."""
from contextlib import ExitStack, contextmanager

held = []


@contextmanager
def lock(name):
    if name.startswith("!"):
        raise PermissionError(f"cannot lock {name[1:]}")
    held.append(name)
    print(f"lock {name}")
    try:
        yield name
    finally:
        held.remove(name)
        print(f"unlock {name}")


def update_accounts(names):
    with ExitStack() as stack:
        locked = [stack.enter_context(lock(n)) for n in sorted(names)]
        print("holding", held)
        return f"updated {', '.join(locked)}"


print(update_accounts(["acct-b", "acct-a", "acct-c"]))
print("held after:", held)
try:
    update_accounts(["x", "!y", "z"])
except PermissionError as e:
    print("PermissionError:", e, "| held:", held)

with ExitStack() as stack:
    first = stack.enter_context(lock("first"))
    stack.push(lambda *exc: print("exit callback saw", exc[0].__name__ if exc[0] else None))
    stack.enter_context(lock("second"))
print("held at the end:", held)
with ExitStack() as stack:
    stack.enter_context(lock("third"))
    stack.push(lambda et, ev, tb: et is KeyError)
    {}["boom"]
print("KeyError swallowed by the stack; held:", held)
