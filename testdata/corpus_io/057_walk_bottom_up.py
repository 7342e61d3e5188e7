import os

rows = []
for root, dirs, files in os.walk(".", topdown=False):
    if root.startswith("./src") or root.startswith("./logs"):
        rows.append((root, len(files), sorted(dirs)))
# bottom-up: every directory comes after the ones below it
print(all(i < j for i, (r, _, _) in enumerate(rows) for j, (s, _, _) in enumerate(rows) if s != r and r.startswith(s + "/")))
for row in sorted(rows):
    print(*row)
