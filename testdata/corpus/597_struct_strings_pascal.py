"""Fixed-width text fields: 's' pads or cuts, 'p' stores a length byte."""
import struct

names = ["Ada", "Grace Hopper", "", "Édith"]
for name in names:
    raw = name.encode("utf-8")
    s_field = struct.pack("8s", raw)
    p_field = struct.pack("8p", raw)
    back_s = struct.unpack("8s", s_field)[0].rstrip(b"\x00")
    back_p = struct.unpack("8p", p_field)[0]
    print(f"{name!r:16} s={s_field!r:38} p={p_field!r}")
    print(f"{'':16} back: {back_s.decode('utf-8', 'replace')!r} {back_p.decode('utf-8', 'replace')!r}")

print(struct.pack("3s", b"abcdef"), struct.pack("0s", b"abc"), struct.pack("1p", b"abc"))
print(struct.pack("2c", b"x", b"y"), struct.unpack("3c", b"abc"))
print(struct.unpack("5p", b"\x09abcd"))
long_p = struct.pack("300p", b"z" * 300)
print(long_p[0], len(long_p), struct.unpack("300p", long_p)[0][-3:])
for bad in ["text", 65, None]:
    try:
        struct.pack("4s", bad)
    except struct.error as e:
        print(type(bad).__name__, "->", e)
print(struct.pack("4s", bytearray(b"ab")))
print(struct.calcsize("10s"), struct.calcsize("10p"), struct.calcsize("10c"))
