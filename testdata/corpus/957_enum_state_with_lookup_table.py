"""A lexer state machine for quoted CSV fields with an Enum of states."""
from enum import Enum, auto


class S(Enum):
    START = auto()
    PLAIN = auto()
    QUOTED = auto()
    QUOTE_IN_QUOTED = auto()


def split_csv(line):
    fields, cur, state = [], [], S.START
    for ch in line:
        if state in (S.START, S.PLAIN):
            if ch == ",":
                fields.append("".join(cur)); cur = []; state = S.START
            elif ch == '"' and state is S.START:
                state = S.QUOTED
            else:
                cur.append(ch); state = S.PLAIN
        elif state is S.QUOTED:
            if ch == '"':
                state = S.QUOTE_IN_QUOTED
            else:
                cur.append(ch)
        elif state is S.QUOTE_IN_QUOTED:
            if ch == '"':
                cur.append('"'); state = S.QUOTED
            elif ch == ",":
                fields.append("".join(cur)); cur = []; state = S.START
            else:
                raise ValueError(f"unexpected {ch!r} after closing quote")
    if state is S.QUOTED:
        raise ValueError("unterminated quote")
    fields.append("".join(cur))
    return fields


for line in ['a,b,c', '"x, y",2,', '"say ""hi""",ok', '', '"open']:
    try:
        print(repr(line), split_csv(line))
    except ValueError as e:
        print(repr(line), "ValueError:", e)
