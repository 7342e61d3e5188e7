"""Opening a variable number of in-memory 'files' with ExitStack and merging their lines."""
import io
from contextlib import ExitStack

SOURCES = {"a.log": "1 start\n4 work\n", "b.log": "2 ping\n3 pong\n5 stop\n", "c.log": ""}


class Tracked:
    closed_names = []

    def __init__(self, name, text):
        self.name = name
        self.buf = io.StringIO(text)

    @property
    def closed(self):
        return self.buf.closed

    def read(self):
        return self.buf.read()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        Tracked.closed_names.append(self.name)
        self.buf.close()


with ExitStack() as stack:
    files = [stack.enter_context(Tracked(n, t)) for n, t in sorted(SOURCES.items())]
    lines = []
    for f in files:
        for line in f.read().splitlines():
            ts, msg = line.split(" ", 1)
            lines.append((int(ts), f.name, msg))
    print("open:", [f.closed for f in files])
for ts, name, msg in sorted(lines):
    print(ts, name, msg)
print("closed in order:", Tracked.closed_names, all(f.closed for f in files))
