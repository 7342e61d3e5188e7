"""A recursive-descent parser building node classes, evaluated by a visitor."""
import re


class Num:
    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Num({self.value})"


class BinOp:
    def __init__(self, op, left, right):
        self.op, self.left, self.right = op, left, right

    def __repr__(self):
        return f"BinOp({self.op!r}, {self.left!r}, {self.right!r})"


class Parser:
    def __init__(self, text):
        self.toks = re.findall(r"\d+|[-+*/()]", text)
        self.pos = 0

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self):
        tok = self.toks[self.pos]
        self.pos += 1
        return tok

    def expr(self):
        node = self.term()
        while self.peek() in ("+", "-"):
            node = BinOp(self.take(), node, self.term())
        return node

    def term(self):
        node = self.atom()
        while self.peek() in ("*", "/"):
            node = BinOp(self.take(), node, self.atom())
        return node

    def atom(self):
        tok = self.take()
        if tok == "(":
            node = self.expr()
            self.take()
            return node
        return Num(int(tok))


class Evaluator:
    def visit(self, node):
        return getattr(self, "visit_" + type(node).__name__)(node)

    def visit_Num(self, node):
        return node.value

    def visit_BinOp(self, node):
        a, b = self.visit(node.left), self.visit(node.right)
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[node.op]


for src in ["1 + 2 * 3", "(1 + 2) * 3", "8 / 4 - 1", "2 * (3 + 4) * 5"]:
    tree = Parser(src).expr()
    print(src, "=>", tree, "=", Evaluator().visit(tree))
