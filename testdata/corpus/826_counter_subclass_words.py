"""Counting words with a Counter subclass that adds normalisation and a report."""
from collections import Counter
import re


class WordCounter(Counter):
    STOP = {"the", "a", "and", "of", "to"}

    def feed(self, text):
        for word in re.findall(r"[a-z']+", text.lower()):
            if word not in self.STOP:
                self[word] += 1
        return self

    def report(self, n=3):
        return ", ".join(f"{w}:{c}" for w, c in self.most_common(n))


wc = WordCounter()
wc.feed("The cat and the hat. The cat sat.").feed("A hat of a cat to sit on")
print(wc.report())
print(wc["cat"], wc["dog"], len(wc))
print(sorted(wc.items())[:4])
other = WordCounter().feed("cat cat dog")
print(type(wc + other).__name__, (wc + other)["cat"])
print(sorted((wc - other).items())[:3])
print(isinstance(wc, Counter), isinstance(wc, dict))
