import re
from operator import itemgetter

INI = """
; service configuration
[server]
host = 0.0.0.0
port = 8080
workers=4

[database]
url = postgres://db:5432/app
pool_size = 10   ; inline comment
timeout = 2.5

[features]
beta = yes
"""

SECTION = re.compile(r"^\[(\w+)\]$")
PAIR = re.compile(r"^(\w+)\s*=\s*(.*?)\s*(?:;.*)?$")

config, current = {}, None
for raw in INI.splitlines():
    line = raw.strip()
    if not line or line.startswith(";"):
        continue
    m = SECTION.match(line)
    if m:
        current = config.setdefault(m.group(1), {})
        continue
    m = PAIR.match(line)
    if m and current is not None:
        key, value = m.groups()
        if re.fullmatch(r"-?\d+", value):
            value = int(value)
        elif re.fullmatch(r"-?\d+\.\d+", value):
            value = float(value)
        current[key] = value

for section, values in config.items():
    print(f"[{section}]", values)

flat = [(f"{s}.{k}", v) for s, kv in config.items() for k, v in kv.items()]
for key, value in sorted(flat, key=itemgetter(0)):
    print(f"{key:<20} {value!r}")
numeric = sorted((kv for kv in flat if isinstance(kv[1], (int, float))), key=itemgetter(1), reverse=True)
print("largest numbers:", numeric[:3])
get_host_port = itemgetter("host", "port")
print(get_host_port(config["server"]))
