text = "日本語のテキストを処理する"
print(len(text))
print(text[0], text[-1])
print(text[:3])
print(text[3:6])
print(text[::2])
print(text[::-1])

greeting = "你好，世界"
for i, ch in enumerate(greeting):
    print(i, ch, hex(ord(ch)))

mixed = "Tokyo 東京 2024"
letters = [c for c in mixed if c.isalpha()]
print(letters)
print("".join(letters))
print(mixed.split())
print("東京" in mixed, "大阪" in mixed)
print(mixed.find("東"), mixed.index("2"))
