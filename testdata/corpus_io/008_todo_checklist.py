from pathlib import Path

text = Path("notes/todo.md").read_text()
done = [l[6:] for l in text.splitlines() if l.startswith("- [x]")]
todo = [l[6:] for l in text.splitlines() if l.startswith("- [ ]")]
print(f"{len(done)} done, {len(todo)} to do")
for item in todo:
    print(" *", item)
