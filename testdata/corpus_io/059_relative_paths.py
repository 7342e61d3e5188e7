from pathlib import Path

root = Path("src")
for p in sorted(root.rglob("*.py")):
    print(p.relative_to(root).as_posix(), p.parts)
