text = "café naïve Ærø"
with open("notes/latin.txt", "w", encoding="latin-1") as f:
    f.write(text)
raw = open("notes/latin.txt", "rb").read()
print(len(raw), raw[:5])
print(open("notes/latin.txt", encoding="latin-1").read() == text)
try:
    open("notes/latin.txt", encoding="utf-8").read()
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e.reason)
