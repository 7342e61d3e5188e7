import json
import re
from collections import Counter

levels = Counter()
slow = []
for line in open("logs/app.log"):
    m = re.match(r"\S+ \S+ (\w+) (.*)", line)
    levels[m.group(1)] += 1
    t = re.search(r"(\d+)ms$", line.strip())
    if t and int(t.group(1)) > 1000:
        slow.append(m.group(2))
json.dump({"levels": dict(levels), "slow": slow}, open("reports/summary.json", "w"))
print(json.load(open("reports/summary.json")))
