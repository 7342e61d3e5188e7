name = "Zoë"
path = "C:\\temp\\new"
items = ["a", "b"]
emoji = "snake 🐍"
quote = "it's"
both = "say \"hi\" it's"

print(f"{name}|{name!s}|{name!r}|{name!a}")
print(f"{path}|{path!r}")
print(f"{items}|{items!r}|{items!s}")
print(f"{emoji!r} {emoji!a}")
print(f"{42!r} {3.0!r} {None!r} {True!s}")
print(f"{quote!r} {both!r}")
print(f"{name!r:>10}|{name!s:*<6}|")
tab = "tab" + chr(9) + "here"
print(f"{tab!r}")
print(f"{'line' + chr(10)!r}")
print(repr("mixed ' and \""), ascii("naïve"))
