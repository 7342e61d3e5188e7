import unicodedata
import re

# Make ASCII slugs and sort keys out of accented names.
def strip_accents(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slugify(text):
    text = strip_accents(text).lower()
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return text.strip("-")


names = ["Crème Brûlée", "Ångström Ünits", "São Paulo", "Zürich—Straße", "ﬁnal ½ price", "naïve café"]
for n in names:
    print(f"{n!r:24} -> {slugify(n)!r}")

print(sorted(names, key=strip_accents))

# Inspect odd characters in user input.
for ch in "A é 1 ٣ \u00a0 – € 😀 \u0301".split(" "):
    if not ch:
        continue
    print(f"U+{ord(ch):04X} {unicodedata.category(ch)} {unicodedata.name(ch, '<no name>')}")

print(unicodedata.lookup("EURO SIGN"), unicodedata.lookup("snowman"))
print(unicodedata.normalize("NFC", "e\u0301") == "é", len("e\u0301"), len(unicodedata.normalize("NFC", "e\u0301")))
print([unicodedata.decimal(c) for c in "٠١٢٣"], unicodedata.numeric("¾"), unicodedata.digit("²"))
print(unicodedata.east_asian_width("中"), unicodedata.east_asian_width("a"))
try:
    unicodedata.lookup("NOT A REAL CHARACTER")
except KeyError as e:
    print("KeyError:", e)
