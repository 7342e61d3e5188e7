"""TypedDict configs are plain dicts at run time; validated against their annotations."""
from typing import TypedDict, get_type_hints


class DBConfig(TypedDict):
    host: str
    port: int
    ssl: bool


class AppConfig(TypedDict, total=False):
    name: str
    workers: int


def check(cfg, schema):
    problems = []
    for key, typ in get_type_hints(schema).items():
        if key not in cfg:
            problems.append(f"missing {key}")
        elif not isinstance(cfg[key], typ):
            problems.append(f"{key}: expected {typ.__name__}, got {type(cfg[key]).__name__}")
    return problems


db: DBConfig = {"host": "localhost", "port": 5432, "ssl": False}
bad = DBConfig(host="x", port="5432")
print(db, type(db).__name__, isinstance(bad, dict))
print(check(db, DBConfig))
print(check(bad, DBConfig))
app: AppConfig = {"name": "api"}
print(app, sorted(AppConfig.__annotations__), DBConfig.__total__, AppConfig.__total__)
