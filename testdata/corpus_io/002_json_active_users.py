import json

with open("data/users.json") as f:
    users = json.load(f)
active = [u for u in users if u["active"]]
print(len(active), "active of", len(users))
for u in active:
    print(u["id"], u["name"], ", ".join(u["roles"]) or "-")
