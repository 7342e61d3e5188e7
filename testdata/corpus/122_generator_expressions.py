orders = [
    {"id": 1, "amount": 25.0, "status": "paid"},
    {"id": 2, "amount": 80.5, "status": "refunded"},
    {"id": 3, "amount": 12.25, "status": "paid"},
    {"id": 4, "amount": 300.0, "status": "pending"},
]

print(sum(o["amount"] for o in orders if o["status"] == "paid"))
print(max(o["amount"] for o in orders))
print(any(o["status"] == "pending" for o in orders), all(o["amount"] > 10 for o in orders))
print(", ".join(str(o["id"]) for o in orders if o["amount"] > 20))
print(sorted((o["amount"] for o in orders), reverse=True))
print(min((o["amount"], o["id"]) for o in orders))

squares = (n * n for n in range(5))
print(next(squares), next(squares))
print(list(squares))
print(list(squares))

lengths = (len(w) for w in "a bb ccc dddd".split())
print(tuple(lengths))
print(dict((k, v) for k, v in [("x", 1), ("y", 2)]))
print(set(c.lower() for c in "AaBb") == {"a", "b"})
