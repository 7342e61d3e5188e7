"""Parsing an INI-like config into nested dataclasses with __post_init__ checks."""
from dataclasses import dataclass, field, fields


@dataclass
class Server:
    host: str = "localhost"
    port: int = 8080
    debug: bool = False

    def __post_init__(self):
        self.port = int(self.port)
        if isinstance(self.debug, str):
            self.debug = self.debug.lower() in ("1", "true", "yes")
        if not 0 < self.port < 65536:
            raise ValueError(f"bad port {self.port}")


@dataclass
class Config:
    name: str
    server: Server = field(default_factory=Server)
    users: list = field(default_factory=list)


TEXT = """
name = demo
[server]
host = example.org
port = 9000
debug = yes
[users]
ana
bo
"""

section, raw = None, {"": {}, "server": {}, "users": []}
for line in TEXT.strip().splitlines():
    line = line.strip()
    if line.startswith("["):
        section = line[1:-1]
    elif section == "users":
        raw["users"].append(line)
    else:
        k, v = (p.strip() for p in line.split("=", 1))
        raw[section or ""][k] = v

cfg = Config(raw[""]["name"], Server(**raw["server"]), raw["users"])
print(cfg)
print([f.name for f in fields(cfg)], [f.name for f in fields(Server)])
print(Config("empty"))
try:
    Server(port="70000")
except ValueError as e:
    print("ValueError:", e)
