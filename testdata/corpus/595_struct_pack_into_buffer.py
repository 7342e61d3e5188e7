"""Build a binary table in a bytearray with pack_into and read it back."""
import struct

HEADER = struct.Struct("<4sHH")   # magic, version, number of rows
ROW = struct.Struct("<i8sf")      # id, name, score

rows = [(1, b"alice", 91.5), (2, b"bob", 78.25), (3, b"charlotte", 88.0), (4, b"dan", -1.0)]
buf = bytearray(HEADER.size + ROW.size * len(rows))
HEADER.pack_into(buf, 0, b"TBL1", 3, len(rows))
for i, row in enumerate(rows):
    ROW.pack_into(buf, HEADER.size + i * ROW.size, *row)

print(len(buf), buf[:8])
magic, version, count = HEADER.unpack_from(buf)
print(magic, version, count)
for i in range(count):
    rid, name, score = ROW.unpack_from(buf, HEADER.size + i * ROW.size)
    print(rid, name.rstrip(b"\x00").decode(), score)

# Patch one field in place: the score of row 2.
struct.pack_into("<f", buf, HEADER.size + ROW.size + 12, 80.5)
print(ROW.unpack_from(buf, HEADER.size + ROW.size))

# Negative offsets count from the end.
struct.pack_into("<i", buf, -ROW.size, 40)
print(ROW.unpack_from(buf, -ROW.size))

for offset in [len(buf) - 2, -len(buf) - 4]:
    try:
        struct.pack_into("<i", buf, offset, 7)
    except struct.error as e:
        print("error:", e)
try:
    struct.pack_into("<i", bytes(4), 0, 7)
except TypeError as e:
    print("TypeError:", e)
try:
    struct.unpack_from("<q", buf, len(buf) - 4)
except struct.error as e:
    print("error:", e)
