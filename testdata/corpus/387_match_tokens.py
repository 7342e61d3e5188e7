# A tiny calculator: tokens matched by type and value.
def tokenize(text):
    tokens, num = [], ""
    for ch in text + " ":
        if ch.isdigit() or ch == ".":
            num += ch
            continue
        if num:
            tokens.append(("num", float(num) if "." in num else int(num)))
            num = ""
        if ch in "+-*/()":
            tokens.append(("op", ch))
        elif not ch.isspace():
            raise ValueError(f"bad character {ch!r}")
    return tokens

def rpn(tokens):
    prec = {"+": 1, "-": 1, "*": 2, "/": 2}
    out, stack = [], []
    for tok in tokens:
        match tok:
            case ("num", value):
                out.append(value)
            case ("op", "("):
                stack.append("(")
            case ("op", ")"):
                while stack and stack[-1] != "(":
                    out.append(stack.pop())
                stack.pop()
            case ("op", op) if op in prec:
                while stack and stack[-1] != "(" and prec[stack[-1]] >= prec[op]:
                    out.append(stack.pop())
                stack.append(op)
    while stack:
        out.append(stack.pop())
    return out

def evaluate(items):
    stack = []
    for item in items:
        match item:
            case int() | float():
                stack.append(item)
            case "+" | "-" | "*" | "/" as op:
                b, a = stack.pop(), stack.pop()
                match op:
                    case "+": stack.append(a + b)
                    case "-": stack.append(a - b)
                    case "*": stack.append(a * b)
                    case "/": stack.append(a / b)
    match stack:
        case [result]:
            return result
        case _:
            raise ValueError(f"bad expression, stack {stack}")

for expr in ["1 + 2 * 3", "(1 + 2) * 3", "10 / 4 - 0.5", "2 * (3 + 4) * 5", "7 -"]:
    try:
        print(expr, "=", evaluate(rpn(tokenize(expr))))
    except (ValueError, IndexError) as e:
        print(expr, "->", type(e).__name__, e)
