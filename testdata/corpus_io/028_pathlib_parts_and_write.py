from pathlib import Path

out = Path("reports") / "summary.md"
out.write_text("# Summary\n\n" + "\n".join(f"- {p.name}" for p in sorted(Path("data").iterdir())) + "\n")
print(out.exists(), out.suffix, out.stem, out.parent, out.with_suffix(".txt").name)
print(out.read_text())
