import os
import re

pattern = re.compile(r"#\s*(TODO|FIXME):?\s*(.*)")
for root, dirs, files in sorted(os.walk("src")):
    for name in sorted(files):
        path = os.path.join(root, name)
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = pattern.search(line)
                if m:
                    print(f"{path}:{n}: {m.group(1)} {m.group(2)}")
