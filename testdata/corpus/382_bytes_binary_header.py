def u16(b: bytes, offset: int) -> int:
    return int.from_bytes(b[offset:offset + 2], "big")

def u32le(b: bytes, offset: int) -> int:
    return int.from_bytes(b[offset:offset + 4], "little")

# A PNG signature and the start of its IHDR chunk
png = bytes.fromhex("89504e470d0a1a0a 0000000d 49484452 00000280 000001e0 08 06 000000")
print(png[:8], png[1:4].decode("ascii"), png[:8] == b"\x89PNG\r\n\x1a\n")
length = int.from_bytes(png[8:12], "big")
chunk = png[12:16]
width = int.from_bytes(png[16:20], "big")
height = int.from_bytes(png[20:24], "big")
depth, color = png[24], png[25]
print(length, chunk, width, height, depth, color)

# A little-endian record: magic, version, flags, count, signed offset
record = b"OT" + (3).to_bytes(2, "big") + (0b101).to_bytes(1, "big") + (70000).to_bytes(4, "little") + (-12).to_bytes(2, "little", signed=True)
print(record, len(record))
assert record.startswith(b"OT")
version = u16(record, 2)
flags = record[4]
count = u32le(record, 5)
offset = int.from_bytes(record[9:11], "little", signed=True)
print(f"version={version} flags={flags:03b} count={count} offset={offset}")
print([name for bit, name in enumerate(["compressed", "signed", "encrypted"]) if flags >> bit & 1])

# Walk length-prefixed fields
blob = b"".join(len(s).to_bytes(1, "big") + s for s in [b"alpha", b"", b"gamma-ray"])
pos, fields = 0, []
while pos < len(blob):
    n = blob[pos]
    fields.append(blob[pos + 1:pos + 1 + n])
    pos += 1 + n
print(blob.hex(" "), fields)
try:
    (70000).to_bytes(2, "big")
except OverflowError as e:
    print("OverflowError:", e)
