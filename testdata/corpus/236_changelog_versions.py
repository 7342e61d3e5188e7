import re
from collections import Counter

CHANGELOG = """
## [2.4.1] - 2024-03-02
### Fixed
- crash when config is empty (#412)
- typo in help text (#415)

## [2.4.0] - 2024-02-10
### Added
- export to CSV (#398)
### Fixed
- timeout not honoured (#401)

## [2.3.7] - 2023-12-21
### Security
- bump dependency to patch CVE-2023-1234 (#390)
"""

header = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)
releases = []
for m in header.finditer(CHANGELOG):
    major, minor, patch = (int(g) for g in m.group(1, 2, 3))
    releases.append(((major, minor, patch), m.group(4)))
    print(f"v{major}.{minor}.{patch} released {m.group(4)} at offset {m.start()}")

latest = max(releases)[0]
print("latest:", ".".join(map(str, latest)))

issues = [int(n) for n in re.findall(r"\(#(\d+)\)", CHANGELOG)]
print("issues:", sorted(issues), "count", len(issues))

sections = Counter(re.findall(r"^### (\w+)", CHANGELOG, flags=re.MULTILINE))
print(sections.most_common())
print("CVEs:", re.findall(r"CVE-\d{4}-\d{4,}", CHANGELOG))

minor_bumps = [v for v, _ in releases if v[2] == 0]
print("minor releases:", minor_bumps)
