def compress(s: str) -> str:
    """'aabcccccaaa' -> 'a2b1c5a3', unless that is not shorter."""
    if not s:
        return s
    parts = []
    count = 1
    for prev, cur in zip(s, s[1:]):
        if cur == prev:
            count += 1
        else:
            parts.append(prev + str(count))
            count = 1
    parts.append(s[-1] + str(count))
    packed = "".join(parts)
    return packed if len(packed) < len(s) else s


for s in ["aabcccccaaa", "abc", "", "aaaaaaaaaaaaaaaaaaaa", "aabb", "ééééé"]:
    out = compress(s)
    ratio = len(out) / len(s) if s else 1.0
    print(f"{s!r:24} -> {out!r:14} ratio={ratio:.2f}")
