# Flag combinations, membership, iteration over a combination, repr/str in 3.11.
# (the ValueError of an invalid Flag value spans three lines in 3.11)
from enum import Flag, IntFlag, auto


class P(Flag):
    R = auto()
    W = auto()
    X = auto()


class I(IntFlag):
    R = 4
    W = 2
    X = 1


rw = P.R | P.W
print(rw, repr(rw), P.R in rw, P.X in rw, list(rw), len(rw), bool(P(0)), P(0))
print(~P.R, rw & P.W, rw ^ P.R, P(7), P(5).name)
print(I.R | I.W, repr(I.R | I.W), I(6) == 6, I.R | 1, list(I(7)), I(0))
try:
    P(8)
except ValueError as e:
    print(type(e).__name__, repr(str(e)))
