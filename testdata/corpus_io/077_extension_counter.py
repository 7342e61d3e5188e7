import os
from collections import Counter

exts = Counter()
for root, _, files in os.walk("."):
    for f in files:
        exts[os.path.splitext(f)[1]] += 1
print(sorted(exts.items()))
