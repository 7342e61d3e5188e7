from pathlib import Path

base = Path("workspace/a/b")
base.mkdir(parents=True, exist_ok=True)
for n in range(3):
    (base / f"f{n}.txt").touch()
print(sorted(p.name for p in base.iterdir()))
try:
    Path("workspace").mkdir()
except FileExistsError as e:
    print("exists:", e.filename)
