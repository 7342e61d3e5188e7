import json

with open("data/users.json", encoding="utf-8") as f:
    users = json.load(f)
with open("reports/users.txt", "w", encoding="utf-8") as out:
    for u in users:
        out.write(f"{u['name']}\t{u['email']}\n")
with open("reports/users.txt") as f:
    lines = f.read().splitlines()
print(len(lines))
print(lines[0])
print(lines[-1])
