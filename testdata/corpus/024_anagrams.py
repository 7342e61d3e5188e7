from typing import Dict, List


def group_anagrams(words: List[str]) -> List[List[str]]:
    groups: Dict[str, List[str]] = {}
    for w in words:
        key = "".join(sorted(w.lower()))
        groups.setdefault(key, []).append(w)
    return [sorted(g) for g in groups.values()]


def is_anagram(a: str, b: str) -> bool:
    return sorted(a.replace(" ", "").lower()) == sorted(b.replace(" ", "").lower())


words = ["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"]
for group in sorted(group_anagrams(words), key=lambda g: (-len(g), g)):
    print(group)

assert is_anagram("Dormitory", "Dirty room")
assert not is_anagram("hello", "world")
print(is_anagram("The eyes", "They see"), is_anagram("abc", "abd"))
