import json

API_RESPONSE = """
{"repos": [
  {"name": "onetool", "stars": 1520, "language": "Go", "archived": false, "topics": ["mcp", "agents"]},
  {"name": "old-cli", "stars": 12, "language": "Python", "archived": true, "topics": []},
  {"name": "notebooks", "stars": 340, "language": "Jupyter Notebook", "archived": false, "topics": ["data"]},
  {"name": "website", "stars": 88, "language": null, "archived": false, "topics": ["docs", "web"]}
]}
"""

repos = json.loads(API_RESPONSE)["repos"]
active = [r for r in repos if not r["archived"]]
summary = {
    "total": len(repos),
    "active": len(active),
    "stars": sum(r["stars"] for r in active),
    "languages": sorted({r["language"] or "unknown" for r in active}),
    "top": max(active, key=lambda r: r["stars"])["name"],
    "topics": sorted({t for r in active for t in r["topics"]}),
}
print(json.dumps(summary, indent=2))
for r in sorted(active, key=lambda r: -r["stars"]):
    print(f"{r['name']:<10} {r['stars']:>5}★ {r['language'] or '-'}")
