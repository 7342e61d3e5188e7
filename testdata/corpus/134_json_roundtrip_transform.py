import json

raw = '{"users": [{"id": 1, "first": "Ada", "last": "Lovelace", "roles": ["admin"]}, {"id": 2, "first": "Alan", "last": "Turing", "roles": []}]}'

data = json.loads(raw)
transformed = {
    "count": len(data["users"]),
    "users": [
        {
            "id": u["id"],
            "full_name": f"{u['first']} {u['last']}",
            "is_admin": "admin" in u["roles"],
        }
        for u in data["users"]
    ],
}
out = json.dumps(transformed, indent=2)
print(out)
again = json.loads(out)
assert again == transformed
print("admins:", [u["full_name"] for u in again["users"] if u["is_admin"]])
