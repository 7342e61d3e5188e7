import copy
import json

DEFAULTS = {
    "server": {"host": "127.0.0.1", "port": 8000, "tls": {"enabled": False, "cert": None}},
    "features": ["search", "export"],
    "retries": 3,
}


def merge(base, override):
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


prod = merge(DEFAULTS, {"server": {"host": "0.0.0.0", "tls": {"enabled": True}}, "retries": 5})
prod["features"].append("audit")
print(json.dumps(prod, indent=2, sort_keys=True))
print("defaults untouched:", json.dumps(DEFAULTS, separators=(",", ":")))

shallow = copy.copy(DEFAULTS)
shallow["server"]["port"] = 9999
print("shallow copy shares nested:", DEFAULTS["server"]["port"], shallow is DEFAULTS, shallow["server"] is DEFAULTS["server"])
deep = copy.deepcopy(DEFAULTS)
deep["server"]["port"] = 1
print("deep copy does not:", DEFAULTS["server"]["port"], deep["server"] is DEFAULTS["server"])
print(json.loads(json.dumps(deep)) == deep)
