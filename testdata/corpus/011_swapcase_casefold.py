words = ["Hello", "WORLD", "pYTHON", "Straße", "ÉTÉ"]
for w in words:
    print(w, w.swapcase(), w.lower(), w.casefold())

def same_ignoring_case(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()

pairs = [("Straße", "STRASSE"), ("hello", "HELLO"), ("café", "CAFÉ"), ("a", "b")]
for a, b in pairs:
    print(f"{a} == {b}: lower={a.lower() == b.lower()} casefold={same_ignoring_case(a, b)}")

print("AbC".swapcase().swapcase())
print("is upper:", "ABC".isupper(), "AbC".isupper(), "123".isupper())
print("is lower:", "abc".islower(), "abc1".islower(), "".islower())
