"""Comparing two configurations through dict views."""

old = {"timeout": 30, "retries": 3, "region": "eu", "debug": False}
new = {"timeout": 60, "retries": 3, "region": "eu", "verbose": True}

print(old.keys())
print(new.values())
print(list(old.items())[:2])

added = new.keys() - old.keys()
removed = old.keys() - new.keys()
common = old.keys() & new.keys()
changed = sorted(k for k in common if old[k] != new[k])
print("added:", sorted(added))
print("removed:", sorted(removed))
print("changed:", changed)
print("unchanged pairs:", sorted(old.items() & new.items()))

keys = old.keys()
old["owner"] = "ops"
print("live view:", len(keys), "owner" in keys)

ports = {80: "http", 443: "https", 22: "ssh"}
print(ports.keys() | {8080}, ports.keys() - {22})
print(sorted(ports.values()), "ssh" in ports.values())
for port, name in sorted(ports.items()):
    print(f"{port:>5} {name}")
print(type(ports.items()).__name__, ports.keys() <= {22, 80, 443, 8080})
