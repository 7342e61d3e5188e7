users = [
    {"id": 1, "name": "Ann"},
    {"id": 2, "name": "Bob"},
    {"id": 3, "name": "Cyd"},
]
orders = [
    {"order": 101, "user_id": 1, "total": 30.0},
    {"order": 102, "user_id": 3, "total": 12.5},
    {"order": 103, "user_id": 1, "total": 7.25},
    {"order": 104, "user_id": 9, "total": 99.0},
]

users_by_id = {u["id"]: u for u in users}

joined = []
for o in orders:
    user = users_by_id.get(o["user_id"])
    joined.append({**o, "name": user["name"] if user else None})
for row in joined:
    print(row)

totals = {u["name"]: 0.0 for u in users}
for row in joined:
    if row["name"] is not None:
        totals[row["name"]] += row["total"]
print(totals)
print("orphans:", [o["order"] for o in orders if o["user_id"] not in users_by_id])
print("no orders:", [u["name"] for u in users if not any(o["user_id"] == u["id"] for o in orders)])
