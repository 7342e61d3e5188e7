import re
from collections import Counter

# Word frequencies in a multilingual text, as an agent tokenizes it.
text = """Le café est très bon. Über den Wolken muß die Freiheit wohl grenzenlos sein.
El niño comió piña y jalapeño en la ciudad de México. Ça va? Naïve façade, coöperate!
Ελληνικά λόγια και русские слова, 東京 2024 ٣٤٥."""

words = re.findall(r"\b\w+\b", text.lower())
print(len(words), words[:12])
counts = Counter(words)
print(counts.most_common(5))

# Capitalised words, whole words only.
print(re.findall(r"\b[A-ZÀ-ÖØ-ÞΑ-ΩА-Я]\w*", text))
print(re.sub(r"\bcafé\b", "coffee", "un café, deux cafés, café!"))
print(re.split(r"\b", "añb cd")[:6])
print([m.span() for m in re.finditer(r"\b\w+\b", "Ωmega δelta")])
print(re.findall(r"\Bé", "café étude"), re.findall(r"\bé", "café étude"))

# Titles with a word boundary after accented letters.
titles = ["Résumé", "Café Society", "Ñandú", "Über alles"]
for t in titles:
    m = re.match(r"(\w+)\b", t)
    print(t, "->", m.group(1), m.span())
print(re.findall(r"\b\w+\b", "naïve café", re.ASCII))
