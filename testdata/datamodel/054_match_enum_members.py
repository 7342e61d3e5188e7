# match on enum members: a dotted name is a value pattern (==), a bare name
# would capture.
from enum import Enum


class Cmd(Enum):
    START = "start"
    STOP = "stop"
    PAUSE = "pause"


def handle(c):
    match c:
        case Cmd.START:
            return "starting"
        case Cmd.STOP | Cmd.PAUSE:
            return f"halting ({c.value})"
        case other:
            return f"unknown {other!r}"


print([handle(c) for c in Cmd], handle("start"), handle(Cmd("stop")))
