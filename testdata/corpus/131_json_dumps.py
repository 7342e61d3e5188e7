import json

record = {
    "id": 42,
    "name": "Widget",
    "price": 19.99,
    "tags": ["tools", "sale"],
    "in_stock": True,
    "discount": None,
    "dimensions": {"w": 10, "h": 2.5},
}

print(json.dumps(record))
print(json.dumps(record, indent=2))
print(json.dumps(record, sort_keys=True))
print(json.dumps(record, separators=(",", ":")))
print(json.dumps([1, "two", 3.0, False, None]))
print(json.dumps("plain string"), json.dumps(7), json.dumps(None), json.dumps(1e100))
print(json.dumps({"b": 1, "a": {"d": 2, "c": 3}}, sort_keys=True, indent=4))
print(json.dumps((1, 2)), json.dumps({1: "int key", 2.5: "float key"}))
