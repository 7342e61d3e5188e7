import os

sizes = {}
for root, dirs, files in os.walk("."):
    for f in files:
        ext = os.path.splitext(f)[1] or "(none)"
        sizes[ext] = sizes.get(ext, 0) + os.path.getsize(os.path.join(root, f))
for ext in sorted(sizes):
    print(f"{ext:<8}{sizes[ext]:>7}")
