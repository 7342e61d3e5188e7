"""Parse rows and attach context to failures with add_note (PEP 678)."""
import traceback

rows = ["1,2", "3,x", "5,6", "7"]


def parse(row: str, lineno: int) -> tuple:
    try:
        a, b = row.split(",")
        return int(a), int(b)
    except ValueError as err:
        err.add_note(f"row {lineno}: {row!r}")
        raise


good, bad = [], []
for i, row in enumerate(rows, start=1):
    try:
        good.append(parse(row, i))
    except ValueError as e:
        bad.append((type(e).__name__, str(e), e.__notes__))
        print(traceback.format_exception_only(e))

print(good)
for b in bad:
    print(b)

e = RuntimeError("outer")
print(hasattr(e, "__notes__"))
e.add_note("first")
e.add_note("second\nline")
print(e.__notes__, e.with_traceback(None) is e)
try:
    e.add_note(42)
except TypeError as t:
    print("TypeError:", t)
