import json


def load_settings(raw: str) -> dict:
    try:
        return json.loads(raw)
    except ValueError as e:
        raise RuntimeError("could not load settings") from e


print(load_settings('{"mode": "fast"}'))
print(load_settings("{'mode': 'slow'}"))
