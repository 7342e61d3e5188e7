# Strings count characters, not bytes.
words = ["héllo", "naïve", "café", "Zürich", "São Paulo", "crème brûlée"]

for w in words:
    print(f"{w!r}: {len(w)} characters, first={w[0]!r}, last={w[-1]!r}")

total = sum(len(w) for w in words)
print("total characters:", total)

longest = max(words, key=len)
print("longest:", longest, len(longest))

# Characters outside ASCII
for w in words:
    accented = [ch for ch in w if ord(ch) > 127]
    print(w, "->", accented)

print("byte lengths:", [len(w.encode("utf-8")) for w in words])
