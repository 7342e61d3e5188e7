import os

for root, dirs, files in os.walk(".", topdown=False):
    if root.startswith("./src") or root == "./logs" or root == "./logs/old":
        print(root, len(files), sorted(dirs))
