"""A pipeline assembled at run time from a list of generator stage functions."""
from functools import reduce
import re


def strip_blank(lines):
    return (l.strip() for l in lines if l.strip())


def drop_comments(lines):
    return (l for l in lines if not l.startswith("#"))


def lowercase(lines):
    for l in lines:
        yield l.lower()


def number(lines):
    for i, l in enumerate(lines, 1):
        yield f"{i:02d} {l}"


def grep(pattern):
    regex = re.compile(pattern)

    def stage(lines):
        return (l for l in lines if regex.search(l))
    stage.__name__ = f"grep({pattern!r})"
    return stage


def build(stages):
    return lambda source: reduce(lambda acc, stage: stage(acc), stages, source)


TEXT = ["# header", "  Alpha=1  ", "", "BETA=2", "#gamma=3", "delta = 4", "Epsilon=5 "]
configs = {
    "clean": [strip_blank, drop_comments],
    "numbered": [strip_blank, drop_comments, lowercase, number],
    "grep": [strip_blank, grep(r"^[A-Z]"), number],
}
for name, stages in configs.items():
    print(name, [s.__name__ for s in stages])
    for line in build(stages)(TEXT):
        print("   ", line)
print(list(build([])(iter(["as-is"]))))
