"""Bit fields, checksums and integer views of packed data."""
import struct


def pack_flags(version: int, kind: int, urgent: bool, length: int) -> bytes:
    word = (version & 0x7) << 13 | (kind & 0x1F) << 8 | int(urgent) << 7 | (length & 0x7F)
    return struct.pack(">H", word)


def unpack_flags(data: bytes) -> dict:
    (word,) = struct.unpack(">H", data)
    return {"version": word >> 13, "kind": word >> 8 & 0x1F, "urgent": bool(word >> 7 & 1), "length": word & 0x7F}


for args in [(1, 3, True, 42), (7, 31, False, 127), (0, 0, False, 0)]:
    data = pack_flags(*args)
    print(args, data.hex(), unpack_flags(data))


def checksum16(data: bytes) -> int:
    if len(data) % 2:
        data += b"\x00"
    total = sum(w for (w,) in struct.iter_unpack("!H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


packet = struct.pack("!BBHHH", 0x45, 0, 28, 0x1C46, 0x4000) + bytes([64, 17]) + b"\x00\x00" + bytes([10, 0, 0, 1, 10, 0, 0, 2])
print(len(packet), hex(checksum16(packet)))

# The same bytes read as signed and unsigned, both orders.
raw = bytes([0xFE, 0xFF, 0xFF, 0xFF])
print(struct.unpack("<i", raw), struct.unpack("<I", raw), struct.unpack(">i", raw), struct.unpack(">I", raw))
print(struct.unpack("<i", raw)[0] == int.from_bytes(raw, "little", signed=True))
print(struct.unpack("<2h", raw), struct.unpack("<4b", raw), struct.unpack("<4B", raw))
print([struct.pack("<q", n).hex() for n in (-1, 2**40, -2**63)])
print(struct.unpack("<Q", struct.pack("<q", -2)), struct.unpack("<q", struct.pack("<Q", 2**64 - 2)))
print(struct.unpack("<??", b"\x00\x05"), struct.pack("<3?", 0, "x", []))
