"""yield from passes send(), throw() and close() straight through to the sub-generator."""


def echo_upper(tag):
    received = []
    try:
        while True:
            msg = yield f"{tag} ready"
            if msg == "quit":
                return received
            received.append(msg.upper())
    except ValueError as e:
        print(f"  {tag} caught ValueError: {e}")
        return received + ["<error>"]
    finally:
        print(f"  {tag} cleanup")


def session():
    first = yield from echo_upper("A")
    print("  A returned", first)
    second = yield from echo_upper("B")
    print("  B returned", second)
    yield "session over"


s = session()
print(next(s))
print(s.send("hello"))
print(s.send("world"))
print(s.send("quit"))
print(s.send("ping"))
print(s.throw(ValueError("bad input")))

t = session()
next(t)
t.send("x")
print("closing the outer generator:")
t.close()


def inner_iter():
    yield from [1, 2]
    yield from (n * 10 for n in range(2))
    yield from "ab"


print(list(inner_iter()))
