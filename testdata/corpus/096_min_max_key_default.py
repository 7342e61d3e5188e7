products = [
    {"name": "laptop", "price": 999.0, "stock": 4},
    {"name": "mouse", "price": 19.5, "stock": 120},
    {"name": "monitor", "price": 249.99, "stock": 0},
    {"name": "cable", "price": 4.99, "stock": 120},
]

cheapest = min(products, key=lambda p: p["price"])
priciest = max(products, key=lambda p: p["price"])
most_stock = max(products, key=lambda p: p["stock"])
print(cheapest["name"], priciest["name"], most_stock["name"])

in_stock = [p for p in products if p["stock"] > 0]
print(min((p["price"] for p in in_stock), default=None))
print(max([], default="empty"), min([], key=len, default=0))
print(max(3, 9, 1), min(3, 9, 1), max("apple", "fig", key=len), min([4, 2, 8]))
print(max([1, 5, 5, 2], key=lambda x: x), max(["b", "a", "C"]), max(["b", "a", "C"], key=str.lower))
print(min((2, "b"), (1, "z"), (1, "a")))
scores = {"ann": 91, "bob": 78, "cy": 91}
print(max(scores, key=scores.get), min(scores.items(), key=lambda kv: kv[1]))
