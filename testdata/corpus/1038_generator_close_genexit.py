"""Cleaning up in a generator when it is closed: GeneratorExit and its rules."""


def batch_writer(flush_every):
    pending = []
    written = []
    try:
        while True:
            pending.append((yield len(written)))
            if len(pending) == flush_every:
                written.extend(pending)
                print("flushed", pending)
                pending = []
    except GeneratorExit:
        if pending:
            print("final flush", pending)
        raise


w = batch_writer(2)
next(w)
for item in "abcde":
    w.send(item)
w.close()
w.close()
print("closed twice without error")


def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield "refusing"


g = stubborn()
next(g)
try:
    g.close()
except RuntimeError as e:
    print("RuntimeError:", e)


def returns_on_exit():
    try:
        yield 1
    except GeneratorExit:
        print("returning quietly")
        return "ignored"


g = returns_on_exit()
next(g)
print(g.close())
print(issubclass(GeneratorExit, Exception), issubclass(GeneratorExit, BaseException))
