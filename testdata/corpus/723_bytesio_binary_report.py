"""Build a small binary record file in memory and read it back."""
import base64
import hashlib
import io
import struct

records = [("alpha", 3, 1.5), ("beta", 10, -2.25), ("gamma", 7, 0.0)]

buf = io.BytesIO()
buf.write(b"REC1")
buf.write(struct.pack("<H", len(records)))
for name, count, score in records:
    raw = name.encode("utf-8")
    buf.write(struct.pack("<B", len(raw)))
    buf.write(raw)
    buf.write(struct.pack("<id", count, score))
data = buf.getvalue()
print(len(data), buf.tell(), hashlib.sha256(data).hexdigest()[:16])
print(base64.b64encode(data[:12]).decode())

reader = io.BytesIO(data)
assert reader.read(4) == b"REC1"
(n,) = struct.unpack("<H", reader.read(2))
for _ in range(n):
    (size,) = struct.unpack("<B", reader.read(1))
    name = reader.read(size).decode()
    count, score = struct.unpack("<id", reader.read(12))
    print(f"{name:<6}{count:>4}{score:>8.2f}")
print(reader.read(), reader.tell() == len(data))

# lines of bytes, seek and overwrite, truncate
log = io.BytesIO(b"first\nsecond\nthird")
print(log.readline(), [line.strip() for line in log])
log.seek(0)
log.write(b"FIRST")
log.seek(0, 2)
log.write(b"\n")
print(log.getvalue())
print(log.truncate(12), log.getvalue(), log.seek(-3, 1), log.read())
try:
    log.write("text")
except TypeError as e:
    print("TypeError:", e)
log.close()
try:
    log.read()
except ValueError as e:
    print("ValueError:", e, log.closed)
