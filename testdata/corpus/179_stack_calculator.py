from typing import List, Union

Token = Union[float, str]
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}


def tokenize(expr: str) -> List[Token]:
    tokens: List[Token] = []
    num = ""
    for ch in expr:
        if ch.isdigit() or ch == ".":
            num += ch
            continue
        if num:
            tokens.append(float(num))
            num = ""
        if ch in PRECEDENCE or ch in "()":
            tokens.append(ch)
        elif not ch.isspace():
            raise ValueError(f"unexpected character {ch!r}")
    return tokens + ([float(num)] if num else [])


def to_rpn(tokens: List[Token]) -> List[Token]:
    out: List[Token] = []
    ops: List[str] = []
    for t in tokens:
        if isinstance(t, float):
            out.append(t)
        elif t == "(":
            ops.append(t)
        elif t == ")":
            while ops[-1] != "(":
                out.append(ops.pop())
            ops.pop()
        else:
            while ops and ops[-1] != "(" and (PRECEDENCE[ops[-1]] > PRECEDENCE[t] or (PRECEDENCE[ops[-1]] == PRECEDENCE[t] and t != "^")):
                out.append(ops.pop())
            ops.append(t)
    return out + ops[::-1]


def evaluate(expr: str) -> float:
    stack: List[float] = []
    for t in to_rpn(tokenize(expr)):
        if isinstance(t, float):
            stack.append(t)
            continue
        b, a = stack.pop(), stack.pop()
        stack.append({"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else float("nan"), "^": a ** b}[t])
    return stack[0]


for e in ["1 + 2 * 3", "(1 + 2) * 3", "2 ^ 3 ^ 2", "10 / 4 - 0.5", "((7))", "3.5 * (2 - 0.5)"]:
    print(f"{e:<18} = {evaluate(e)}")
try:
    evaluate("2 $ 3")
except ValueError as err:
    print("error:", err)
