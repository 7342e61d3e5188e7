measurements = [3.14159, 2.71828, 1.41421, 1234.5678]

for width, precision in [(8, 2), (10, 4), (6, 0)]:
    row = " ".join(f"{m:{width}.{precision}f}" for m in measurements)
    print(f"w={width} p={precision}: {row}")

align = "^"
fill = "."
for a in "<^>":
    print(f"[{'hi':{fill}{a}{8}}]")

def fmt_money(amount: float, currency: str = "€", decimals: int = 2) -> str:
    return f"{currency}{amount:,.{decimals}f}"

print(fmt_money(1234567.891))
print(fmt_money(0.5, "$", 0))
print(fmt_money(99.999, "£", 3))

spec = ">12,.1f"
print(f"[{9876543.21:{spec}}]")
print(f"[{'text':{align}{12}}]")
