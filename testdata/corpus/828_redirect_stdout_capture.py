"""Capturing what a function prints with redirect_stdout into io.StringIO."""
import io
from contextlib import redirect_stdout


def report(rows):
    print(f"{'name':<6}{'qty':>4}")
    for name, qty in rows:
        print(f"{name:<6}{qty:>4}")
    print("total", sum(q for _, q in rows))


buf = io.StringIO()
with redirect_stdout(buf):
    report([("nut", 5), ("bolt", 12)])
    print("inside redirect")
captured = buf.getvalue()
print("captured", len(captured.splitlines()), "lines")
print(captured.upper(), end="")
lines = [l for l in captured.splitlines() if l.startswith("b")]
print(lines)

with io.StringIO() as s:
    s.write("a,b\n1,2\n")
    print(repr(s.getvalue()))
print(s.closed)
