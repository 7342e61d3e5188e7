import json as j
from json import dumps, loads as parse_json

doc = parse_json('{"a": [1, 2, {"b": null}], "c": "d"}')
print(doc)
print(dumps(doc))
print(j.dumps(doc, indent=1))
print(j.loads(dumps(doc)) == doc)

settings = {"retries": 3, "backoff": 1.5, "endpoints": ["a", "b"]}
encoded = dumps(settings, sort_keys=True)
print(encoded)
print(parse_json(encoded)["backoff"] * 2)
