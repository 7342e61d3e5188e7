rows = [("Widget", 4, 3.5), ("Gadget", 12, 12.25), ("Thingamajig", 1, 99.999)]

print(f"{'Item':<12}|{'Qty':^5}|{'Price':>10}")
print(f"{'':-<12}+{'':-^5}+{'':->10}")
for item, qty, price in rows:
    print(f"{item:<12}|{qty:^5}|{price:>10.2f}")

word = "mid"
print(f"[{word:*^11}]")
print(f"[{word:_<7}]")
print(f"[{word:>7}]")
print(f"[{42:=^9}]")
print(f"[{-42:=9}]")
print(f"[{'é':~^5}]")
print(f"[{'日本':>6}]")
width = 10
print(f"[{word:>{width}}]")
print(f"[{word:{'#'}^{width}}]")
