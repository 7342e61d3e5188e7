word = "résumé"
print(list(word))
print(sorted(word))
print(sorted(set(word)))
print("".join(reversed(word)))
print(list(enumerate(word)))
print(list(zip(word, "ABCDEF")))
print(len(set(word)), len(word))
print("é" in word, "e" in word, "sum" in word)

for i, (a, b) in enumerate(zip("kitten", "sitting")):
    mark = "=" if a == b else "x"
    print(i, a, b, mark)

chars = [c for c in "naïve café" if c != " "]
print(chars, len(chars))
print(tuple("abc"), max("hello"), min("hello"))
