CONFIG = """
# database settings
db.host = localhost
db.port = 5432
db.ssl = true

# feature flags
features = search, export ,beta
timeout = 2.5
name = "My App"
broken line without equals
retries = three
"""


def parse_value(raw: str):
    raw = raw.strip()
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1]
    for conv in (int, float):
        try:
            return conv(raw)
        except ValueError:
            pass
    if "," in raw:
        return [part.strip() for part in raw.split(",")]
    return raw


config, problems = {}, []
for n, line in enumerate(CONFIG.splitlines(), start=1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    key, sep, value = line.partition("=")
    if not sep:
        problems.append(f"line {n}: no '=' in {line!r}")
        continue
    config[key.strip()] = parse_value(value)

for k, v in config.items():
    print(f"{k:<10} {type(v).__name__:<6} {v!r}")
print(problems)
