from pathlib import Path

for p in ["data", "data/sales.csv", "data/none.csv", "src/pkg"]:
    q = Path(p)
    print(p, q.exists(), q.is_file(), q.is_dir())
