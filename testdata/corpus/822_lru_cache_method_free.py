"""Memoised edit distance with lru_cache and a class that wraps the comparison."""
from functools import lru_cache


@lru_cache(maxsize=1024)
def distance(a, b):
    if not a:
        return len(b)
    if not b:
        return len(a)
    if a[0] == b[0]:
        return distance(a[1:], b[1:])
    return 1 + min(distance(a[1:], b), distance(a, b[1:]), distance(a[1:], b[1:]))


class SpellChecker:
    def __init__(self, words):
        self.words = sorted(words)

    def suggest(self, word, limit=2):
        scored = sorted((distance(word, w), w) for w in self.words)
        return [w for d, w in scored[:limit] if d <= 2]

    def __contains__(self, word):
        return word in self.words


checker = SpellChecker(["apple", "apply", "ample", "maple", "angle"])
for w in ["appel", "aple", "xyz", "apple"]:
    print(w, w in checker, checker.suggest(w))
info = distance.cache_info()
print(info.maxsize, info.currsize > 0, info.hits > 0)
