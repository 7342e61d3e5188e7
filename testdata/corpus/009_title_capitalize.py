names = ["alice smith", "BOB JONES", "o'neil mcdonald", "jean-luc picard", "élodie durand"]

for name in names:
    print(f"{name:20} | {name.title():20} | {name.capitalize():20} | {name.upper()}")

def smart_title(s: str) -> str:
    small = {"a", "an", "the", "of", "and", "in"}
    words = s.lower().split()
    out = []
    for i, w in enumerate(words):
        if i > 0 and w in small:
            out.append(w)
        else:
            out.append(w[0].upper() + w[1:])
    return " ".join(out)

print(smart_title("the lord of the rings"))
print(smart_title("A TALE OF TWO CITIES"))
print("hello world".istitle(), "Hello World".istitle())
print("straße".upper(), "ÉCOLE".lower())
