from collections import Counter, OrderedDict, deque, defaultdict

# Can we build each recipe from the pantry? Counter inclusion answers it.
pantry = Counter(flour=5, eggs=6, sugar=2, butter=1)
recipes = {
    "pancakes": Counter(flour=2, eggs=2, butter=1),
    "cake": Counter(flour=3, eggs=4, sugar=3),
    "omelette": Counter(eggs=3),
}
for name, needs in recipes.items():
    ok = needs <= pantry
    missing = needs - pantry
    print(f"{name:<9} {'yes' if ok else 'no':<3} missing={dict(missing)}")

print(Counter(a=1) < Counter(a=1, b=1), Counter(a=2) >= Counter(a=2), +Counter(a=2, b=-1), -Counter(a=2, b=-1))

# Recently used items with an ordered dict, merged defaults with |.
settings = OrderedDict.fromkeys(["theme", "lang", "tz"], "default")
settings |= {"lang": "fr"}
settings.move_to_end("theme")
print(settings)

history = deque([1, 2, 3], maxlen=5)
history += [4, 5, 6]
print(history, history + deque([7]))

groups = defaultdict(list) | {"x": [1]}
groups["y"].append(2)
print(groups)
