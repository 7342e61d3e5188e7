defaults = {"theme": "light", "font_size": 12, "plugins": []}
user = defaults.copy()
user["theme"] = "dark"
user["plugins"].append("spellcheck")
print(defaults)
print(user)

fields = ["name", "email", "phone"]
blank = dict.fromkeys(fields)
print(blank)
zeros = dict.fromkeys(fields, 0)
print(zeros)
print(dict.fromkeys("hello"))
print(list(dict.fromkeys([3, 1, 3, 2, 1])))

shared = dict.fromkeys(["a", "b"], [])
shared["a"].append(1)
print(shared)

counts = dict.fromkeys(sorted(set("abracadabra")), 0)
for ch in "abracadabra":
    counts[ch] += 1
print(counts)
