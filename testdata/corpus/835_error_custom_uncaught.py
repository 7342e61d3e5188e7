"""A config loader whose custom error carries context; the last lookup is not caught."""


class ConfigError(Exception):
    def __init__(self, key, source):
        self.key = key
        self.source = source
        super().__init__(f"missing key {key!r} in {source}")


class Config:
    def __init__(self, source, values):
        self.source = source
        self.values = dict(values)

    def require(self, key):
        if key not in self.values:
            raise ConfigError(key, self.source)
        return self.values[key]


cfg = Config("app.toml", {"name": "demo", "port": 80})
print(cfg.require("name"), cfg.require("port"))
try:
    cfg.require("debug")
except ConfigError as e:
    print("handled:", e.key, e.source)
print(cfg.require("database_url"))
