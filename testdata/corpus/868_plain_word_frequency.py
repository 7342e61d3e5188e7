"""Word statistics over a paragraph with comprehensions, sorted items and one helper class."""
import re
from collections import Counter

TEXT = """It was the best of times, it was the worst of times, it was the age of
wisdom, it was the age of foolishness, it was the epoch of belief."""


class Freq:
    def __init__(self, text):
        self.words = re.findall(r"[a-z]+", text.lower())
        self.counts = Counter(self.words)

    def top(self, n):
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def __len__(self):
        return len(self.words)


f = Freq(TEXT)
print(len(f), len(f.counts))
print(f.top(5))
by_len = {}
for w in sorted(f.counts):
    by_len.setdefault(len(w), []).append(w)
print({k: v for k, v in sorted(by_len.items()) if k >= 5})
print(" ".join(w.capitalize() for w in f.words[:6]))
bigrams = Counter(zip(f.words, f.words[1:]))
print(bigrams.most_common(2))
