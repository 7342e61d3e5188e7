import functools
import re
import bisect

tags = ["v1.10.0", "v1.2.0", "v1.2.10", "v1.2.9", "v2.0.0-rc1", "v2.0.0", "v0.9.1", "v1.2.9-beta"]
SEMVER = re.compile(r"^v(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.]+))?$")


def parse(tag):
    m = SEMVER.match(tag)
    major, minor, patch, pre = m.groups()
    return (int(major), int(minor), int(patch)), pre


def compare(a, b):
    (va, pa), (vb, pb) = parse(a), parse(b)
    if va != vb:
        return -1 if va < vb else 1
    if pa == pb:
        return 0
    if pa is None:
        return 1  # a release sorts after its pre-releases
    if pb is None:
        return -1
    return -1 if pa < pb else 1


ordered = sorted(tags, key=functools.cmp_to_key(compare))
print(ordered)
print("newest:", max(tags, key=functools.cmp_to_key(compare)))
print("naive sort differs:", sorted(tags) != ordered)

releases = [t for t in ordered if parse(t)[1] is None]
keys = [parse(t)[0] for t in releases]
want = (1, 5, 0)
i = bisect.bisect_right(keys, want)
print("latest release at or below 1.5.0:", releases[i - 1], "next:", releases[i])
print(functools.reduce(lambda a, b: a if compare(a, b) >= 0 else b, tags))
