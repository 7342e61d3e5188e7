evens = [0, 2, 4]
odds = [1, 3, 5]
combined = [*evens, *odds]
print(combined)
print([*evens, 100, *odds[::-1]])
print((*odds, *"ab"))
print({*evens, *odds} == set(range(6)))

defaults = {"host": "localhost", "port": 80, "tls": False}
overrides = {"port": 8443, "tls": True}
config = {**defaults, **overrides}
print(config)
print({**config, "host": "example.com", "timeout": 30})
print({"timeout": 30, **config})

def merge(*dicts):
    out = {}
    for d in dicts:
        out = {**out, **d}
    return out

print(merge({"a": 1}, {"b": 2}, {"a": 3}))
print([*range(3), *[9]])
