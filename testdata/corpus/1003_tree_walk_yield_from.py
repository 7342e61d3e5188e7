"""Walk a nested directory structure with recursive yield from."""
TREE = {
    "src": {
        "main.py": 1200,
        "utils": {"strings.py": 300, "dates.py": 450},
        "tests": {"test_main.py": 800, "fixtures": {"data.json": 5000}},
    },
    "README.md": 250,
    "setup.cfg": 90,
}


def walk(node, prefix=""):
    for name in sorted(node):
        path = f"{prefix}/{name}" if prefix else name
        child = node[name]
        if isinstance(child, dict):
            yield path + "/", None
            yield from walk(child, path)
        else:
            yield path, child


def files_only(node):
    yield from ((p, s) for p, s in walk(node) if s is not None)


for path, size in walk(TREE):
    depth = path.rstrip("/").count("/")
    print("  " * depth + path.rstrip("/").split("/")[-1] + ("/" if size is None else f" ({size})"))

largest = max(files_only(TREE), key=lambda item: item[1])
print("largest:", largest)
print("python files:", [p for p, _ in files_only(TREE) if p.endswith(".py")])
print("total bytes:", sum(size for _, size in files_only(TREE)))
