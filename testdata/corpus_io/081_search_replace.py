from pathlib import Path

changed = 0
for p in sorted(Path("src").rglob("*.py")):
    text = p.read_text()
    new = text.replace("hello", "hi")
    if new != text:
        p.write_text(new)
        changed += 1
print(changed, Path("src/pkg/mod.py").read_text().strip().splitlines()[-1])
