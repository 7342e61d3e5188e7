def hexdump(data: bytes, width: int = 8) -> list:
    """Lines of offset, hex bytes and printable ASCII, like xxd."""
    lines = []
    for off in range(0, len(data), width):
        chunk = data[off:off + width]
        hexpart = " ".join(f"{b:02x}" for b in chunk)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{off:08x}  {hexpart:<{width * 3 - 1}}  |{text}|")
    return lines

sample = "Hello, wörld!\n\tbytes\x00\x7f".encode("utf-8")
for line in hexdump(sample):
    print(line)

print(len(sample), sample.count(b"l"), sample.find(b"w"), sample.index(0))
print(sample.hex()[:20], sample.hex("-", 4)[:26])
assert bytes.fromhex(sample.hex()) == sample

# Byte statistics
counts = {}
for b in sample:
    counts[b] = counts.get(b, 0) + 1
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
print([(chr(k), v) for k, v in top])
print(sum(sample), min(sample), max(sample), sorted(set(sample))[:5])
print(all(b < 128 for b in b"ascii"), any(b >= 128 for b in sample), sample.isascii())

# Printable check and a bad hex string
for text in ["0a0b", "0a 0b", "0a0", "xyz"]:
    try:
        print(text, bytes.fromhex(text))
    except ValueError as e:
        print(text, "ValueError:", e)
