from pathlib import Path

p = Path("reports/raw.bin")
p.write_bytes(b"\x00\x01hello\xff")
data = p.read_bytes()
print(data, len(data), data.hex())
