import json


def deep_merge(base: dict, override: dict) -> dict:
    """Merge override into a copy of base, recursing into nested dicts."""
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = value
    return result


defaults = {
    "server": {"host": "0.0.0.0", "port": 80, "tls": {"enabled": False, "cert": None}},
    "logging": {"level": "info", "handlers": ["console"]},
    "workers": 4,
}
production = {
    "server": {"port": 443, "tls": {"enabled": True, "cert": "/etc/cert.pem"}},
    "logging": {"handlers": ["file", "syslog"]},
    "workers": 16,
}
merged = deep_merge(defaults, production)
print(json.dumps(merged, indent=2))
print(defaults["server"]["port"], merged["server"]["host"])
