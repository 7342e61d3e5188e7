def make_logger(prefix):
    lines = []
    count = 0

    def log(message):
        nonlocal count
        count += 1
        lines.append(f"{prefix}[{count}] {message}")

    def summary():
        return f"{count} messages", lines

    return log, summary


log, summary = make_logger("app")
log("starting")
log("loaded 3 plugins")
log("ready")
n, lines = summary()
print(n)
print("\n".join(lines))


def outer():
    state = "initial"

    def change():
        nonlocal state
        state = "changed"

    before = state
    change()
    return before, state


print(outer())
