"""Default factories: lambdas, classes and functions building per-instance state."""
from dataclasses import dataclass, field
from collections import defaultdict, deque
import itertools

_ids = itertools.count(1)


@dataclass
class Session:
    user: str
    id: int = field(default_factory=lambda: next(_ids))
    history: deque = field(default_factory=lambda: deque(maxlen=3))
    scores: defaultdict = field(default_factory=lambda: defaultdict(int), repr=False)

    def visit(self, page):
        self.history.append(page)
        self.scores[page] += 1


a, b = Session("ana"), Session("bo")
for p in ["home", "docs", "home", "blog", "docs"]:
    a.visit(p)
b.visit("home")
print(a)
print(b)
print(dict(a.scores), a.history is b.history, Session("cy").id)
