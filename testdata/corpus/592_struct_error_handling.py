"""Validate values before writing a binary message, with struct.error."""
import struct


def try_pack(fmt, *values):
    try:
        data = struct.pack(fmt, *values)
        return f"ok {data.hex()}"
    except struct.error as e:
        return f"struct.error: {e}"
    except OverflowError as e:
        return f"OverflowError: {e}"


cases = [
    ("b", 127), ("b", 128), ("B", -1), ("h", 40000), ("<H", 65536), (">H", -1),
    ("i", 2**31), ("<I", 2**32), ("q", 2**63), ("<Q", -1), (">q", 2**63),
    ("i", 3.0), ("i", "7"), ("?", "yes"), ("c", b"ab"), ("c", "a"),
    ("3s", "abc"), ("e", 70000.0), ("<f", 1e39), ("f", 1e39), ("d", "1.5"),
    ("ii", 1), ("i", 1, 2), ("x", ), ("2x", 1),
]
for fmt, *values in cases:
    print(f"{fmt!r:6} {values!r:18} -> {try_pack(fmt, *values)}")

for fmt, buf in [("<i", b"\x01\x02\x03"), ("<h", b"\x01\x02\x03"), ("", b"")]:
    try:
        print(fmt, struct.unpack(fmt, buf))
    except struct.error as e:
        print(fmt, "error:", e)

try:
    struct.unpack("<i", "abcd")
except TypeError as e:
    print("TypeError:", e)

print(issubclass(struct.error, Exception), struct.error.__name__)
