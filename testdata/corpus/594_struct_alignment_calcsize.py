"""Native alignment against standard sizes: a table of calcsize."""
import struct

codes = "xcbB?hHiIlLqQefd"
print("code  native  standard")
for code in codes:
    print(f"{code:>4}  {struct.calcsize('@' + code):>6}  {struct.calcsize('<' + code):>8}")
for code in "nNP":
    try:
        struct.calcsize("<" + code)
    except struct.error as e:
        print(f"{code:>4}  {struct.calcsize(code):>6}  {str(e):>8}")

layouts = ["ci", "ic", "cq", "qc", "chi", "bhiq", "qihb", "c0i", "c0q", "3sd", "?e", "c3h", "<ci", "=cq", "!cq"]
for fmt in layouts:
    print(f"{fmt:>6}: {struct.calcsize(fmt)}")

# Padding shows up as zero bytes between fields in native mode.
print(struct.pack("@cid", b"A", 1, 2.0).hex())
print(struct.pack("<cid", b"A", 1, 2.0).hex())
print(struct.unpack("@cid", struct.pack("@cid", b"A", -1, 0.5)))

# Sort fields by size to avoid padding.
fields = {"flag": "?", "count": "q", "kind": "h", "code": "i"}
naive = "".join(fields.values())
packed = "".join(sorted(fields.values(), key=lambda c: -struct.calcsize(c)))
print(naive, struct.calcsize(naive), "->", packed, struct.calcsize(packed))
