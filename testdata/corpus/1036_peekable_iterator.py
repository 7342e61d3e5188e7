"""A peekable wrapper used by a recursive-descent parser over a token generator."""


class Peekable:
    _empty = object()

    def __init__(self, iterable):
        self._it = iter(iterable)
        self._peeked = self._empty

    def __iter__(self):
        return self

    def __next__(self):
        if self._peeked is not self._empty:
            value, self._peeked = self._peeked, self._empty
            return value
        return next(self._it)

    def peek(self, default=None):
        if self._peeked is self._empty:
            self._peeked = next(self._it, self._empty)
        return default if self._peeked is self._empty else self._peeked


def tokens(text):
    for part in text.replace("(", " ( ").replace(")", " ) ").split():
        yield int(part) if part.isdigit() else part


def parse_expr(ts):
    """Parse sums of terms: term ('+' term)*; term := number | '(' expr ')'."""
    value = parse_term(ts)
    while ts.peek() == "+":
        next(ts)
        value += parse_term(ts)
    return value


def parse_term(ts):
    tok = next(ts)
    if tok == "(":
        value = parse_expr(ts)
        assert next(ts) == ")", "expected )"
        return value * 2
    return tok


for src in ["1 + 2 + 3", "(1 + 2) + 4", "((5)) + (1 + (1))"]:
    print(src, "=>", parse_expr(Peekable(tokens(src))))
p = Peekable(x for x in [10, 20])
print(p.peek(), p.peek(), next(p), list(p), p.peek("end"))
