import json

payloads = ['{"id": 1, "ok": true}', '[1, 2, 3]', '{"id": 2, "ok": tru}']
for raw in payloads:
    data = json.loads(raw)
    print(type(data).__name__, data)
