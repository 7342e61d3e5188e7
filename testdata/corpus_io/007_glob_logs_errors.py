import glob

errors = []
for path in sorted(glob.glob("logs/**/*.log", recursive=True)):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if " ERROR " in line:
                errors.append((path, n, line.strip().split(" ERROR ")[1]))
for path, n, msg in errors:
    print(f"{path}:{n}: {msg}")
