"""Dispatch on names with getattr/hasattr, attrgetter and methodcaller."""
import json
import operator

ops = ["upper", "casefold", "title", "swapcase", "nope"]
word = "Straße Mix"
for name in ops:
    fn = getattr(word, name, None)
    if fn is None:
        print(f"{name}: no such method")
        continue
    print(f"{name}: {fn()}")

print(getattr(json, "dumps")({"a": [1, 2]}), hasattr(json, "loads"), hasattr(json, "nope"))
try:
    getattr(json, "nope")
except AttributeError as e:
    print("AttributeError:", e)
try:
    getattr(42, "missing")
except AttributeError as e:
    print("AttributeError:", e)

nums = [3, 2.5, True]
print([getattr(n, "real") for n in nums], [n.imag for n in nums])
print(list(map(operator.attrgetter("real"), nums)))
print(list(map(operator.methodcaller("count", "a"), ["banana", "apple", "kiwi"])))
print(list(map(operator.methodcaller("zfill", 5), ["7", "42"])))


def handler(event):
    return f"handled {event}"


print(getattr(handler, "__name__"), getattr(handler, "__doc__"), hasattr(handler, "__call__") or True)
print(getattr([1, 2, 2], "count")(2), getattr({"k": 1}, "get")("k"))
