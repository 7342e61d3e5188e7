"""Word frequencies from text through a chain of small generator functions."""
import re
from collections import Counter

TEXT = """The quick brown fox jumps over the lazy dog. The dog sleeps;
the fox does not! Foxes are quick, dogs are lazy -- or so the story goes.
"""
STOPWORDS = {"the", "a", "are", "or", "so", "not", "does", "over"}


def lines(text):
    yield from text.splitlines()


def words(lines):
    for line in lines:
        yield from re.findall(r"[a-z']+", line.lower())


def without_stopwords(words):
    return (w for w in words if w not in STOPWORDS)


def stem(words):
    for w in words:
        yield w[:-2] if w.endswith("es") and len(w) > 4 else w[:-1] if w.endswith("s") and len(w) > 3 else w


counts = Counter(stem(without_stopwords(words(lines(TEXT)))))
print(counts.most_common(4))
print(sorted(w for w, c in counts.items() if c == 1))
print(sum(1 for _ in words(lines(TEXT))), len(counts))
longest = max(words(lines(TEXT)), key=len)
print("longest word:", longest)
