"""typing.NamedTuple records with defaults and methods, used for a leaderboard."""
from typing import NamedTuple


class Score(NamedTuple):
    player: str
    points: int
    bonus: int = 0

    @property
    def total(self):
        return self.points + self.bonus

    def label(self):
        return f"{self.player}={self.total}"


scores = [Score("ana", 40, 5), Score("bo", 50), Score("cy", 30, 30), Score("di", 45)]
board = sorted(scores, key=lambda s: (-s.total, s.player))
for rank, s in enumerate(board, 1):
    print(rank, s.label())
print(scores[1])
print(scores[0]._replace(bonus=0), scores[0]._asdict())
player, points, bonus = scores[2]
print(player, points, bonus, scores[2][1], len(scores[2]))
print(Score._fields, Score._field_defaults)
print(Score("x", 1) == ("x", 1, 0), isinstance(scores[0], tuple))
