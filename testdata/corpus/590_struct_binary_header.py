"""Parse the header of a small PNG file built in memory."""
import struct

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def make_chunk(kind: bytes, data: bytes) -> bytes:
    # A fake CRC: the sum of the bytes, enough to check the layout.
    crc = sum(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def parse_ihdr(data: bytes) -> dict:
    width, height, depth, color, comp, filt, interlace = struct.unpack(">IIBBBBB", data)
    return {"width": width, "height": height, "depth": depth, "color": color,
            "compression": comp, "filter": filt, "interlace": interlace}


ihdr = struct.pack(">IIBBBBB", 640, 480, 8, 6, 0, 0, 0)
png = SIGNATURE + make_chunk(b"IHDR", ihdr) + make_chunk(b"tEXt", b"Title\x00Demo") + make_chunk(b"IEND", b"")
print("total bytes:", len(png))
assert png[:8] == SIGNATURE

offset = 8
while offset < len(png):
    (length,) = struct.unpack_from(">I", png, offset)
    kind = png[offset + 4:offset + 8]
    data = png[offset + 8:offset + 8 + length]
    (crc,) = struct.unpack_from(">I", png, offset + 8 + length)
    ok = crc == (sum(kind + data) & 0xFFFFFFFF)
    print(f"{kind.decode('ascii')}: {length} bytes at {offset}, crc ok={ok}")
    if kind == b"IHDR":
        for key, value in parse_ihdr(data).items():
            print(f"  {key:12} {value}")
    elif kind == b"tEXt":
        key, _, text = data.partition(b"\x00")
        print("  text:", key.decode(), "=", text.decode())
    offset += 12 + length

print("header size:", struct.calcsize(">IIBBBBB"))
print(struct.pack(">I", 640).hex(), struct.pack("<I", 640).hex())
