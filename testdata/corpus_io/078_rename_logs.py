import os
import shutil

shutil.copytree("logs", "archive")
for root, dirs, files in os.walk("archive"):
    for f in files:
        if f.endswith(".log"):
            src = os.path.join(root, f)
            os.rename(src, src[:-4] + ".txt")
print(sorted(os.path.join(r, f) for r, _, fs in os.walk("archive") for f in fs))
