import os

found = []
for root, dirs, files in os.walk("src"):
    dirs.sort()
    for name in sorted(files):
        if name.endswith(".py"):
            found.append(os.path.join(root, name))
print("\n".join(found))
