# Route webhook events by shape with match, as agents write handlers.
events = [
    {"type": "issue", "action": "opened", "issue": {"number": 12, "title": "Crash on start", "labels": ["bug"]}},
    {"type": "issue", "action": "closed", "issue": {"number": 7, "title": "Docs", "labels": []}},
    {"type": "push", "commits": [{"id": "a1"}, {"id": "b2"}, {"id": "c3"}], "ref": "refs/heads/main"},
    {"type": "push", "commits": [], "ref": "refs/tags/v1.0"},
    {"type": "comment", "body": "LGTM", "user": {"login": "ann"}},
    {"type": "star"},
    ["not", "an", "event"],
]

summary = {"issues": 0, "commits": 0, "other": []}
for event in events:
    match event:
        case {"type": "issue", "action": "opened", "issue": {"number": n, "labels": [*labels]}} if "bug" in labels:
            summary["issues"] += 1
            print(f"bug #{n} opened ({len(labels)} label{'s' if len(labels) != 1 else ''})")
        case {"type": "issue", "action": action, "issue": {"number": n, "title": title}}:
            print(f"issue #{n} {action}: {title!r}")
        case {"type": "push", "commits": [], "ref": ref}:
            print("empty push to", ref.rsplit("/", 1)[-1])
        case {"type": "push", "commits": [{"id": first}, *rest], "ref": str(ref)}:
            summary["commits"] += 1 + len(rest)
            print(f"push of {1 + len(rest)} commits to {ref}, first {first}")
        case {"type": "comment", "user": {"login": login}, **others}:
            print(f"comment by {login}: {sorted(others)}")
        case {"type": other}:
            summary["other"].append(other)
        case [*words]:
            print("a list of", len(words))
        case _:
            print("unknown")
print(summary)
