def dedupe(items):
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def dedupe_by(items, key):
    seen = set()
    out = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


print(dedupe([3, 1, 3, 2, 1, 5, 2]))
print(dedupe("mississippi"))
print(list(dict.fromkeys(["b", "a", "b", "c", "a"])))
emails = ["A@x.com", "b@y.org", "a@X.com", "C@z.net", "B@Y.ORG"]
print(dedupe_by(emails, str.lower))
people = [("ann", 30), ("bob", 25), ("ann", 31), ("cyd", 25)]
print(dedupe_by(people, lambda p: p[0]))
print(dedupe_by(people, lambda p: p[1]))
