words = ["banana", "Apple", "cherry", "apple", "Banana", "éclair", "zebra"]

print(sorted(words))
print(sorted(words, key=str.lower))
print(sorted(words, key=lambda w: (w.lower(), w)))
print(sorted(words, key=len))
print(sorted(words, key=lambda w: (-len(w), w)))

print("apple" < "banana", "Apple" < "apple", "a" < "B", "é" > "z")
print("abc" == "abc", "abc" != "ABC", "abc" < "abcd")
print("-" * 30)
print("ab" * 3, 3 * "xy", "" * 10 == "")
print(max(words), min(words))
print(max(words, key=str.lower), min(words, key=str.lower))
