from pathlib import Path

for p in sorted(Path(".").glob("**/*.md")):
    words = len(p.read_text().split())
    print(f"{str(p):<16} {words:>4} words")
