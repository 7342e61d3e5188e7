"""Merging booking intervals: a NamedTuple for spans, sorting and sweeping."""
from typing import NamedTuple, List


class Span(NamedTuple):
    start: int
    end: int

    def overlaps(self, other: "Span") -> bool:
        return self.start <= other.end and other.start <= self.end

    def __len__(self):
        return self.end - self.start


def merge(spans: List[Span]) -> List[Span]:
    out: List[Span] = []
    for s in sorted(spans):
        if out and out[-1].overlaps(s):
            out[-1] = Span(out[-1].start, max(out[-1].end, s.end))
        else:
            out.append(s)
    return out


bookings = [Span(9, 11), Span(13, 15), Span(10, 12), Span(15, 16), Span(18, 19)]
merged = merge(bookings)
print(merged)
print([len(s) for s in merged], sum(map(len, merged)))
free = [Span(a.end, b.start) for a, b in zip(merged, merged[1:])]
print(free, Span(1, 2) < Span(1, 3), max(bookings, key=len))
