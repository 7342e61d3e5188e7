import json

for name in ["data/users.json", "data/missing.json"]:
    try:
        with open(name) as f:
            print(name, len(json.load(f)))
    except FileNotFoundError as e:
        print("missing:", e.filename, "|", e)
