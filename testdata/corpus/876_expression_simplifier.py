"""Simplifying symbolic expressions built from small node classes with __eq__ and match."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Const:
    v: int


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Add:
    a: object
    b: object


@dataclass(frozen=True)
class Mul:
    a: object
    b: object


def simplify(e):
    match e:
        case Add(a, b):
            a, b = simplify(a), simplify(b)
            match (a, b):
                case (Const(0), x) | (x, Const(0)):
                    return x
                case (Const(x), Const(y)):
                    return Const(x + y)
            return Add(a, b)
        case Mul(a, b):
            a, b = simplify(a), simplify(b)
            match (a, b):
                case (Const(0), _) | (_, Const(0)):
                    return Const(0)
                case (Const(1), x) | (x, Const(1)):
                    return x
                case (Const(x), Const(y)):
                    return Const(x * y)
            return Mul(a, b)
    return e


def show(e):
    match e:
        case Const(v): return str(v)
        case Var(n): return n
        case Add(a, b): return f"({show(a)} + {show(b)})"
        case Mul(a, b): return f"{show(a)}*{show(b)}"


x = Var("x")
exprs = [Add(x, Const(0)), Mul(Const(1), Add(x, Mul(Const(0), x))), Add(Const(2), Const(3)),
         Mul(Add(Const(1), Const(1)), x), Add(Mul(x, Const(1)), Mul(Const(2), Const(5)))]
for e in exprs:
    print(show(e), "=>", show(simplify(e)))
print(simplify(exprs[1]) == x, len({simplify(e) for e in exprs}))
