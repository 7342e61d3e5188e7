"""Parse newline-delimited JSON events lazily, counting the lines that fail."""
import json
from collections import Counter

NDJSON = """{"type": "click", "user": 1, "x": 10}
{"type": "view", "user": 2}
{"type": "click", "user": 1, "x": 12
not json at all
{"type": "purchase", "user": 2, "amount": 19.99}

{"type": "click", "user": 3, "x": 5}
[1, 2, 3]
"""


def parse_events(text, stats):
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as e:
            stats["bad"] += 1
            print(f"line {number}: {e.msg}")
            continue
        if not isinstance(event, dict):
            stats["not-object"] += 1
            continue
        stats["ok"] += 1
        yield event


stats = Counter()
events = list(parse_events(NDJSON, stats))
print(dict(sorted(stats.items())))
print(Counter(e["type"] for e in events).most_common())
clicks_by_user = {}
for e in events:
    if e["type"] == "click":
        clicks_by_user.setdefault(e["user"], []).append(e["x"])
print(clicks_by_user)
revenue = sum(e.get("amount", 0) for e in parse_events(NDJSON, Counter()) if e["type"] == "purchase")
print("revenue:", revenue)
