"""Ranked-choice vote counting with lists, dicts and Counter, reporting each round."""
from collections import Counter

BALLOTS = [["a", "b", "c"], ["b", "a", "c"], ["c", "b", "a"], ["a", "c", "b"],
           ["b", "c", "a"], ["c", "b", "a"], ["b", "a", "c"]]


class Election:
    def __init__(self, ballots):
        self.ballots = [list(b) for b in ballots]
        self.rounds = []

    def run(self):
        remaining = {c for b in self.ballots for c in b}
        while True:
            tally = Counter(next(c for c in b if c in remaining) for b in self.ballots)
            self.rounds.append(dict(sorted(tally.items())))
            leader, votes = max(sorted(tally.items()), key=lambda kv: kv[1])
            if votes * 2 > len(self.ballots) or len(remaining) == 1:
                return leader
            loser = min(sorted(remaining), key=lambda c: tally.get(c, 0))
            remaining.discard(loser)


e = Election(BALLOTS)
print(e.run())
for i, r in enumerate(e.rounds, 1):
    print("round", i, r)
