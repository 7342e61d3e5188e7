import json

report = {"regions": ["north", "south"], "total": 12.5, "ok": True, "note": None}
with open("reports/report.json", "w") as f:
    json.dump(report, f, indent=2, sort_keys=True)
with open("reports/report.json") as f:
    text = f.read()
print(text)
print(json.loads(text) == report)
