stock = {"apple": 5, "banana": 0}

print(stock.get("apple"), stock.get("kiwi"), stock.get("kiwi", -1))
print(stock.setdefault("kiwi", 7), stock.setdefault("apple", 100))
print(stock)
stock.update({"banana": 12, "cherry": 3})
stock.update(date=4)
print(stock)
print(stock.pop("date"), stock.pop("missing", "n/a"))
print(list(stock.keys()), list(stock.values()))
print(list(stock.items())[:2])
print("apple" in stock, "zzz" not in stock, len(stock))
last = stock.popitem()
print(last, stock)

groups = {}
for word in ["ant", "bee", "ape", "bat", "cow"]:
    groups.setdefault(word[0], []).append(word)
print(groups)

merged = {**stock, "apple": 0}
merged |= {"fig": 9}
print(merged)
stock.clear()
print(stock, bool(stock))
