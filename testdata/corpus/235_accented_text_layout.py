menu = {"Crème brûlée": 7.5, "Café au lait": 3.2, "Smørrebrød": 11.0, "Pão de queijo": 4.75, "Jalapeño poppers": 6.0}

width = max(len(name) for name in menu) + 2
print("MENU".center(width + 8, "~"))
for name, price in menu.items():
    print(f"{name:.<{width}}{price:>8.2f}")
print("~" * (width + 8))

for name in menu:
    initials = "".join(word[0] for word in name.split())
    print(f"{name[:4]!r:8} {name[-3:]!r:8} {initials:<4} {name[::-1]}")

longest = max(menu, key=len)
print(longest, len(longest), longest.upper(), longest.index("ñ"))
print(sorted(menu, key=lambda n: n.casefold()))
