"""Write what CPython's own parser makes of the test programs.

Run by the tests of package pyast with -update (go test ./interp/python/pyast
-run CPython -update); needs python3 (3.11, whose grammar pyast follows).

    python3 dump.py trees corpus.txtar > corpus.want
    python3 dump.py errors errors.txtar > errors.want

The programs are txtar archives: each "-- name --" line starts one program.

trees: for each program, a line "== name" and then its tree, one node a
line, indented by two spaces a level:

    Kind @start..end scalar=value ...
      .field
        Kind ...

Kind is the ast class name. Positions are line:column, both from 1, the
column counted in characters (ast's col_offset counts UTF-8 bytes). Only
the positions a node owns are written: a node whose start or end is that of
a child (BinOp, Call's start, Assign, ...) has none there, because CPython
widens those to enclosing parentheses, which the Go tree does not keep.
Tuples have positions only when written in parentheses, parts of
f-strings (their constants, fields and format specs) none: CPython 3.11
gives them the span of the whole string. Fields are those of the ast class
in its order, without ctx, type_comment, kind and simple; an empty list or
a None node is not written; a None inside a list is a line "None". Patterns and
match cases are written without positions. Scalars: strings in
single quotes with anything but printable ASCII escaped (\\xhh, \\uhhhh,
\\Uhhhhhhhh), ints in decimal, floats as "f:" and the 16 hex digits of
their IEEE 754 bits, operators as written in Python ("+", "not in").

errors: one line per program, "name<TAB>line:column<TAB>message" for the
SyntaxError CPython raises, "name<TAB>ok" when it raises none.
"""

import ast
import io
import sys
import tokenize

OPS = {
    "Add": "+", "Sub": "-", "Mult": "*", "MatMult": "@", "Div": "/",
    "Mod": "%", "Pow": "**", "LShift": "<<", "RShift": ">>", "BitOr": "|",
    "BitXor": "^", "BitAnd": "&", "FloorDiv": "//", "And": "and",
    "Or": "or", "Invert": "~", "Not": "not", "UAdd": "+", "USub": "-",
    "Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">",
    "GtE": ">=", "Is": "is", "IsNot": "is not", "In": "in",
    "NotIn": "not in",
}

BOTH = {
    "FunctionDef", "AsyncFunctionDef", "ClassDef", "Return", "Delete",
    "For", "AsyncFor", "While", "If", "With", "AsyncWith", "Match",
    "Raise", "Try", "TryStar", "Assert", "Import", "ImportFrom", "Global",
    "Nonlocal", "Pass", "Break", "Continue", "ExceptHandler", "alias",
    "Dict", "Set", "List", "ListComp", "SetComp", "DictComp",
    "GeneratorExp", "Yield", "YieldFrom", "Name", "Constant", "JoinedStr",
    "Slice",
}
START = {"arg", "keyword", "UnaryOp", "Lambda", "Await", "Starred"}
END = {"Call", "Subscript", "Attribute"}
SKIP = {"ctx", "type_comment", "kind", "simple", "type_ignores"}


def read_txtar(path):
    # As Go's txtar reads it: a file is the lines up to the next marker,
    # each with its newline.
    with open(path, encoding="utf-8", newline="") as f:
        data = f.read()
    lines = [l + "\n" for l in data.split("\n")]
    if lines and lines[-1] == "\n":
        lines.pop()
    progs, name, body = [], None, []
    for line in lines:
        if line.startswith("-- ") and line.endswith(" --\n"):
            if name is not None:
                progs.append((name, "".join(body)))
            name, body = line[3:-4], []
        elif name is not None:
            body.append(line)
    if name is not None:
        progs.append((name, "".join(body)))
    return progs


def quote(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch in "\\'":
            out.append("\\" + ch)
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        elif o < 0x100:
            out.append("\\x%02x" % o)
        elif o < 0x10000:
            out.append("\\u%04x" % o)
        else:
            out.append("\\U%08x" % o)
    return "'" + "".join(out) + "'"


def scalar(v):
    if isinstance(v, bool) or v is None or v is Ellipsis:
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "f:%016x" % int.from_bytes(__import__("struct").pack(">d", v), "big")
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, bytes):
        return "b" + quote(v.decode("latin-1"))
    if isinstance(v, list):
        return "[" + ",".join(scalar(x) for x in v) + "]"
    if isinstance(v, ast.AST):
        return OPS[type(v).__name__]
    raise TypeError(type(v))


class Dumper:
    def __init__(self, src):
        self.lines = src.encode("utf-8").split(b"\n")
        self.out = []
        self.fstring = 0
        self.parens = set()
        try:
            stack = []
            for tok in tokenize.generate_tokens(io.StringIO(src).readline):
                if tok.type == tokenize.OP and tok.string == "(":
                    stack.append(tok.start)
                elif tok.type == tokenize.OP and tok.string == ")" and stack:
                    self.parens.add((stack.pop(), tok.end))
        except (tokenize.TokenError, SyntaxError):
            pass

    def col(self, line, byte_col):
        return len(self.lines[line - 1][:byte_col].decode("utf-8")) + 1

    def start(self, n):
        return "%d:%d" % (n.lineno, self.col(n.lineno, n.col_offset))

    def end(self, n):
        return "%d:%d" % (n.end_lineno, self.col(n.end_lineno, n.end_col_offset))

    def span(self, n):
        kind = type(n).__name__
        if self.fstring and kind in ("Constant", "FormattedValue", "JoinedStr", "Tuple", "GeneratorExp"):
            return "", ""
        if kind in BOTH:
            return self.start(n), self.end(n)
        if kind in START:
            return self.start(n), ""
        if kind in END:
            return "", self.end(n)
        if kind == "Tuple":
            s = (n.lineno, n.col_offset)
            e = (n.end_lineno, n.end_col_offset)
            if self.paren(s, e):
                return self.start(n), self.end(n)
        return "", ""

    def paren(self, s, e):
        # tokenize counts columns in characters, ast in bytes.
        sc = self.col(s[0], s[1]) - 1
        ec = self.col(e[0], e[1]) - 1
        return ((s[0], sc), (e[0], ec)) in self.parens

    def node(self, n, indent):
        kind = type(n).__name__
        s, e = self.span(n)
        head = "  " * indent + kind
        if s or e:
            head += " @" + s + ".." + e
        children = []
        fields = n._fields
        if kind == "JoinedStr":
            self.fstring += 1
        for f in fields:
            if f in SKIP:
                continue
            v = getattr(n, f)
            if isinstance(v, ast.AST) and not isinstance(v, (ast.operator, ast.unaryop, ast.boolop, ast.cmpop)):
                children.append((f, [v]))
            elif isinstance(v, list) and any(isinstance(x, ast.AST) and not isinstance(x, ast.cmpop) for x in v):
                children.append((f, v))
            elif isinstance(v, list) and v and all(x is None for x in v):
                children.append((f, v))
            elif v is None and f not in ("name", "asname", "module", "arg", "value"):
                continue
            elif isinstance(v, list) and not v:
                continue
            elif f == "value" and kind not in ("Constant",) and v is None:
                continue
            else:
                head += " %s=%s" % (f, scalar(v))
        self.out.append(head)
        for f, vs in children:
            self.out.append("  " * (indent + 1) + "." + f)
            for v in vs:
                if v is None:
                    self.out.append("  " * (indent + 2) + "None")
                else:
                    self.node(v, indent + 2)
        if kind == "JoinedStr":
            self.fstring -= 1


def trees(path):
    for name, src in read_txtar(path):
        print("== " + name)
        try:
            tree = ast.parse(src)
        except SyntaxError as e:
            print("error %s:%s %s" % (e.lineno, e.offset, e.msg))
            continue
        d = Dumper(src)
        d.node(tree, 0)
        print("\n".join(d.out))


def errors(path):
    for name, src in read_txtar(path):
        try:
            ast.parse(src)
            print("%s\tok" % name)
        except SyntaxError as e:
            print("%s\t%s:%s\t%s" % (name, e.lineno, e.offset, e.msg))
        except (ValueError, MemoryError, RecursionError) as e:
            print("%s\t0:0\t%s: %s" % (name, type(e).__name__, e))


if __name__ == "__main__":
    {"trees": trees, "errors": errors}[sys.argv[1]](sys.argv[2])
