"""Knight moves on a chess board: a Square class with __add__, __eq__, __hash__ and parsing."""
from collections import deque


class Square:
    def __init__(self, file, rank):
        self.file, self.rank = file, rank

    @classmethod
    def parse(cls, name):
        return cls(ord(name[0]) - ord("a"), int(name[1]) - 1)

    def __add__(self, delta):
        return Square(self.file + delta[0], self.rank + delta[1])

    def on_board(self):
        return 0 <= self.file < 8 and 0 <= self.rank < 8

    def __eq__(self, other):
        return (self.file, self.rank) == (other.file, other.rank)

    def __hash__(self):
        return self.file * 8 + self.rank

    def __repr__(self):
        return chr(ord("a") + self.file) + str(self.rank + 1)


JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def knight_path(start, goal):
    start, goal = Square.parse(start), Square.parse(goal)
    prev = {start: None}
    q = deque([start])
    while q:
        sq = q.popleft()
        if sq == goal:
            path = []
            while sq:
                path.append(sq)
                sq = prev[sq]
            return path[::-1]
        for j in JUMPS:
            nxt = sq + j
            if nxt.on_board() and nxt not in prev:
                prev[nxt] = sq
                q.append(nxt)


print(knight_path("a1", "h8"))
print(knight_path("b1", "c3"), knight_path("e4", "e4"))
print(sorted((Square.parse("d4") + j for j in JUMPS), key=hash))
