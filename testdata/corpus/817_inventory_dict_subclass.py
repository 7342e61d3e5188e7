"""A dict subclass with __missing__ counting stock and a report method."""


class Stock(dict):
    def __missing__(self, key):
        return 0

    def add(self, item, n=1):
        self[item] = self[item] + n
        return self

    def low(self, threshold):
        return sorted(k for k, v in self.items() if v < threshold)


s = Stock()
for item in ["apple", "pear", "apple", "fig", "apple", "pear"]:
    s.add(item)
s.add("kiwi", 10)
print(s, s["banana"], "banana" in s)
print(s.low(3), len(s), isinstance(s, dict))
print(dict(s) == s, type(s).__name__, s.get("banana"), s.get("banana", -1))
merged = Stock({"apple": 1})
merged.update(s)
print(merged, type(merged).__name__)
print(sorted(s.items(), key=lambda kv: -kv[1])[:2])
