import json

payload = """
{
  "status": "ok",
  "count": 3,
  "results": [
    {"user": "ann", "score": 91.5, "tags": ["a", "b"]},
    {"user": "bob", "score": 78, "tags": []},
    {"user": "cyd", "score": null, "tags": ["c"]}
  ],
  "meta": {"page": 1, "has_more": false}
}
"""

data = json.loads(payload)
print(type(data).__name__, sorted(data.keys()))
print(data["status"], data["count"], data["meta"]["has_more"])
for r in data["results"]:
    score = r["score"] if r["score"] is not None else "n/a"
    print(f"{r['user']}: {score} tags={','.join(r['tags']) or '-'}")

scored = [r for r in data["results"] if r["score"] is not None]
print(sum(r["score"] for r in scored) / len(scored))
print(json.loads("[1, 2.5, true, null, \"x\"]"))
print(json.loads('"\\u00e9t\\u00e9"'), json.loads("3"), json.loads(" {} "))
