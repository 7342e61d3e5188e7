"""Grouping anagrams and finding palindromes, with a cached signature helper."""
from functools import cache
from collections import defaultdict

WORDS = ["listen", "silent", "enlist", "google", "gogole", "cat", "act", "tac", "level", "noon", "dog"]


@cache
def signature(word):
    return "".join(sorted(word))


groups = defaultdict(list)
for w in WORDS:
    groups[signature(w)].append(w)
multi = sorted((sorted(g) for g in groups.values() if len(g) > 1), key=lambda g: (-len(g), g))
print(multi)
print([w for w in WORDS if w == w[::-1]])
print(signature.cache_info().currsize, signature("tac"), signature.cache_info().hits)
lengths = {len(w) for w in WORDS}
print(sorted(lengths), {n: sum(len(w) == n for w in WORDS) for n in sorted(lengths)})
