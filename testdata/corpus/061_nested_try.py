def parse_record(line: str) -> dict:
    name, qty, price = line.split(",")
    try:
        qty_value = int(qty)
    except ValueError:
        try:
            qty_value = int(float(qty))
        except ValueError:
            raise ValueError(f"bad quantity {qty!r}") from None
    return {"name": name, "qty": qty_value, "price": float(price)}


lines = ["apple,3,0.5", "pear,2.0,0.75", "plum,many,0.2", "fig,1", "kiwi,4,x"]
good = []
for line in lines:
    try:
        try:
            good.append(parse_record(line))
        except ValueError as e:
            print(f"{line!r}: {e}")
    finally:
        print(f"checked {line!r}")

print(good)
print(sum(r["qty"] * r["price"] for r in good))
