import json


class ConfigError(Exception):
    pass


def load_config(text: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ConfigError("config is not valid JSON") from e
    if "name" not in data:
        raise ConfigError("config has no 'name'")
    return data


for text in ['{"name": "svc", "port": 80}', "{not json", '{"port": 1}']:
    try:
        cfg = load_config(text)
        print("loaded:", cfg)
    except ConfigError as e:
        cause = e.__cause__
        print("error:", e, "| chained:", cause is not None)
