from pathlib import Path

total = 0
for p in sorted(Path("data").rglob("*")):
    if p.is_file():
        size = p.stat().st_size
        total += size
        print(f"{p.name:<14} {p.suffix:<6} {size}")
print("total", total)
