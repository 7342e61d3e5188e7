listings = [
    {"city": "Lisbon", "price": 950, "rooms": 2, "pets": True, "tags": ["balcony"]},
    {"city": "Porto", "price": 700, "rooms": 1, "pets": False, "tags": []},
    {"city": "Lisbon", "price": 1400, "rooms": 3, "pets": True, "tags": ["garage", "garden"]},
    {"city": "Faro", "price": 820, "rooms": 2, "pets": False, "tags": ["pool"]},
    {"city": "Lisbon", "price": 780, "rooms": 1, "pets": True, "tags": []},
]


def matches(listing, *, city=None, max_price=None, min_rooms=0, pets=None, tag=None):
    if city is not None and listing["city"] != city:
        return False
    if max_price is not None and listing["price"] > max_price:
        return False
    if listing["rooms"] < min_rooms:
        return False
    if pets is not None and listing["pets"] != pets:
        return False
    return tag is None or tag in listing["tags"]


queries = [
    {"city": "Lisbon"},
    {"max_price": 900},
    {"city": "Lisbon", "min_rooms": 2, "pets": True},
    {"tag": "pool"},
    {"city": "Madrid"},
]
for q in queries:
    found = [f"{l['city']}/{l['price']}" for l in listings if matches(l, **q)]
    print(q, "->", found)
