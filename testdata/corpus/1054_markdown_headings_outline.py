"""Build a numbered outline from Markdown headings with a generator."""
import re

DOC = """# Install
Some text.
## From PyPI
```
# not a heading inside code
```
## From source
### Requirements
# Usage
## CLI
### Flags
### Exit codes
## Library
"""


def headings(text):
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = re.match(r"(#{1,6})\s+(.*)", line)
        if m and not in_code:
            yield len(m.group(1)), m.group(2)


def numbered(items):
    counters = []
    for level, title in items:
        del counters[level:]
        counters.extend([0] * (level - len(counters)))
        counters[level - 1] += 1
        yield ".".join(map(str, counters)), level, title


for number, level, title in numbered(headings(DOC)):
    print("  " * (level - 1) + f"{number} {title}")
slugs = (re.sub(r"\W+", "-", title.lower()).strip("-") for _, title in headings(DOC))
print(list(slugs))
print(max(headings(DOC))[0], sum(1 for lvl, _ in headings(DOC) if lvl == 2))
