from typing import List


def longest_common_prefix(strs: List[str]) -> str:
    """Return the longest prefix shared by every string."""
    if not strs:
        return ""
    prefix = strs[0]
    for s in strs[1:]:
        while not s.startswith(prefix):
            prefix = prefix[:-1]
            if not prefix:
                return ""
    return prefix


def common_prefix_zip(strs: List[str]) -> str:
    out = []
    for chars in zip(*strs):
        if len(set(chars)) != 1:
            break
        out.append(chars[0])
    return "".join(out)


tests = [["flower", "flow", "flight"], ["dog", "racecar", "car"], ["interview", "internet", "interval"], [], ["solo"], ["préfixe", "préface"]]
for t in tests:
    a = longest_common_prefix(t)
    b = common_prefix_zip(t) if t else ""
    assert a == b
    print(t, repr(a))
