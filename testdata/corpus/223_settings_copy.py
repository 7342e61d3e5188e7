base_settings = {"theme": "light", "lang": "en", "notifications": {"email": True, "sms": False}}

session = base_settings.copy()
session["theme"] = "dark"
print(base_settings["theme"], session["theme"])

# copy() is shallow: the nested dict is shared
session["notifications"]["sms"] = True
print(base_settings["notifications"], session["notifications"] is base_settings["notifications"])


def safe_copy(d):
    return {k: safe_copy(v) if isinstance(v, dict) else v for k, v in d.items()}


isolated = safe_copy(base_settings)
isolated["notifications"]["email"] = False
print(base_settings["notifications"]["email"], isolated["notifications"]["email"])

snapshots = []
state = {"step": 0}
for step in range(1, 4):
    state["step"] = step
    snapshots.append(state.copy())
print(snapshots, dict(state) == state, dict(state) is state)
