"""Drawing a text histogram of word lengths with a Histogram class and str.ljust."""


class Histogram:
    def __init__(self, values, width=30):
        self.counts = {}
        for v in values:
            self.counts[v] = self.counts.get(v, 0) + 1
        self.width = width

    def __str__(self):
        top = max(self.counts.values())
        lines = []
        for key in sorted(self.counts):
            n = self.counts[key]
            bar = "#" * max(1, round(n / top * self.width))
            lines.append(f"{key:>3} | {bar.ljust(self.width)} | {n}")
        return "\n".join(lines)


text = "the quick brown fox jumps over the lazy dog and then the fox sleeps soundly"
h = Histogram([len(w) for w in text.split()], width=20)
print(h)
print(sum(h.counts.values()), max(h.counts, key=h.counts.get))
