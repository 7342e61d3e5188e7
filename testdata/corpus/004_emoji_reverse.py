message = "I ❤ Python 🐍!"
print(len(message))
print(message[::-1])
print(message[7:])
print(list(message[-3:]))

reactions = "👍👎😀🎉"
print(len(reactions))
for ch in reversed(reactions):
    print(ch, ord(ch))

counts = {}
for ch in "🍎🍌🍎🍇🍌🍎":
    counts[ch] = counts.get(ch, 0) + 1
for fruit, n in sorted(counts.items(), key=lambda kv: -kv[1]):
    print(fruit, n)

print("🐍" in message, message.count("o"))
print(chr(0x1F600), chr(9731))
