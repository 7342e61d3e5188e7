from collections import ChainMap

# Layered configuration: command line over environment over defaults.
defaults = {"host": "localhost", "port": 8080, "debug": False, "workers": 4}
env = {"port": 9000, "debug": True}
cli = {}

config = ChainMap(cli, env, defaults)
print(config["host"], config["port"], config["debug"], config["workers"])
print(len(config), sorted(config), dict(config))
print(config)

cli["workers"] = 8
config["host"] = "0.0.0.0"  # writes go to the first mapping
print(cli)
print(config.maps[1] is env, "debug" in config, "timeout" in config)
print(config.get("timeout", 30))

# A scope chain for a tiny interpreter.
globals_ = {"x": 1, "y": 2}
scope = ChainMap(globals_)
inner = scope.new_child({"x": 10})
innermost = inner.new_child(z=3)
for name in ["x", "y", "z"]:
    print(name, "=", innermost.get(name, "undefined"), "/", scope.get(name, "undefined"))
print(innermost.parents == inner, list(innermost.maps[0].items()))

try:
    del config["port"]  # only in env, not in the first mapping
except KeyError as e:
    print("KeyError:", e)
del config["host"]
print(cli, config["host"])
merged = config | {"timeout": 5}
print(type(merged).__name__, merged["timeout"], merged.maps[0])
