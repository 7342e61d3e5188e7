import json

events = [{"id": i, "kind": k} for i, k in enumerate(["start", "click", "click", "stop"])]
with open("reports/events.ndjson", "w") as f:
    for e in events:
        f.write(json.dumps(e) + "\n")
with open("reports/events.ndjson") as f:
    loaded = [json.loads(line) for line in f if line.strip()]
print(loaded == events, sum(1 for e in loaded if e["kind"] == "click"))
