"""Formats from a config are checked; a bad one ends the program."""
import struct

formats = {"header": "<4sI", "point": "<ff", "flags": "<?3x", "bad": "<iZ"}
sizes = {}
for name, fmt in formats.items():
    try:
        sizes[name] = struct.calcsize(fmt)
    except struct.error as e:
        print(f"{name}: {e}")
print(sizes)

for fmt in ["12", "<P", "99999999999999999999i", "i i", " <i"]:
    try:
        print(repr(fmt), struct.calcsize(fmt))
    except struct.error as e:
        print(repr(fmt), "->", e)

record = struct.pack(formats["header"], b"DATA", 7)
print(struct.unpack(formats["header"], record))
print(struct.unpack(formats["point"], record))
print(struct.unpack(formats["bad"], record))
