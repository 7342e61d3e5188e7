inventory = {"apples": 10, "bananas": 0, "cherries": 25}

def take(item: str, n: int) -> int:
    try:
        stock = inventory[item]
    except KeyError as e:
        print(f"unknown item {e}; args={e.args}")
        return 0
    if stock < n:
        print(f"only {stock} {item} left")
        n = stock
    inventory[item] = stock - n
    return n

print(take("apples", 4))
print(take("kiwis", 1))
print(take("bananas", 2))
print(take("cherries", 30))
print(inventory)

try:
    del inventory["durian"]
except KeyError as e:
    print("cannot delete:", e, str(e) == "'durian'")

print(inventory.get("durian", "n/a"), inventory.pop("durian", None))
