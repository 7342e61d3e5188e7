from string import Template
import statistics
import string

notes = Template("""Release $version ($date)
$count changes: $breakdown
Median review time: ${median_h}h (mean ${mean_h}h)
""")

prs = [
    {"title": "fix login", "kind": "fix", "review_h": 2.0},
    {"title": "add export", "kind": "feature", "review_h": 30.5},
    {"title": "docs typo", "kind": "docs", "review_h": 0.5},
    {"title": "speed up search", "kind": "feature", "review_h": 12.0},
    {"title": "fix crash", "kind": "fix", "review_h": 4.0},
]

kinds = sorted({p["kind"] for p in prs})
breakdown = ", ".join(f"{k}={sum(p['kind'] == k for p in prs)}" for k in kinds)
hours = [p["review_h"] for p in prs]
print(notes.substitute(version="1.8.0", date="2024-06-01", count=len(prs), breakdown=breakdown,
                       median_h=statistics.median(hours), mean_h=round(statistics.mean(hours), 1)))

for i, p in enumerate(prs):
    label = string.ascii_uppercase[i]
    print(f"{label}. {string.capwords(p['title'])} [{p['kind']}]")

partial = Template("$greeting, $name! Your code is $code.")
print(partial.safe_substitute(greeting="Hello"))
mapping = {"greeting": "Hi", "name": "dev", "code": "A1"}
print(partial.substitute(mapping))
print(partial.substitute(mapping, name="override"))
