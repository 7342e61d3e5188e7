# zfill, ljust, rjust and center
codes = ["7", "42", "-5", "+3", "1234"]
for c in codes:
    print(repr(c.zfill(4)))

items = [("apple", 1.5), ("banana", 0.25), ("kiwi", 12.0)]
print("=" * 24)
print("MENU".center(24))
print("=" * 24)
for name, price in items:
    print(name.ljust(15, ".") + f"{price:.2f}".rjust(9))
print("-" * 24)

print("[" + "x".center(6, "*") + "]")
print("[" + "ab".center(5) + "]")
print("[" + "日本".rjust(6, "・") + "]")
print("[" + "é".ljust(3, "-") + "]")
print("abc".zfill(6), "".zfill(3))
