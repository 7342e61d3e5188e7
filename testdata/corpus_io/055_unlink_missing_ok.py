from pathlib import Path

p = Path("reports/2025.txt")
p.unlink()
p.unlink(missing_ok=True)
try:
    p.unlink()
except FileNotFoundError as e:
    print(type(e).__name__, e.errno)
print(p.exists())
