countries = {"Deutschland": "DE", "Österreich": "AT", "España": "ES", "Straße-Land": "XX"}
index = {name.casefold(): code for name, code in countries.items()}


def lookup(name: str):
    return index.get(name.casefold(), "??")


for query in ["deutschland", "ÖSTERREICH", "españa", "STRASSE-LAND", "France"]:
    print(f"{query:<14} -> {lookup(query)}")

header = "Content-Type"
print(header.swapcase(), header.lower() == "content-type", header.casefold())
toggled = "".join(c.swapcase() for c in "PyThOn 3.11 ÄöÜ")
print(toggled)
print("Straße".casefold(), "STRASSE".casefold() == "straße".casefold(), "straße".lower() == "strasse")
