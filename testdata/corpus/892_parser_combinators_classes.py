"""Parser combinators as classes overloading | and >> to parse key=value lists."""
import re


class Parser:
    def __or__(self, other):
        return Alt(self, other)

    def __rshift__(self, fn):
        return Map(self, fn)


class Regex(Parser):
    def __init__(self, pattern):
        self.rx = re.compile(pattern)

    def __call__(self, s, i):
        m = self.rx.match(s, i)
        return (m.group(0), m.end()) if m else None


class Alt(Parser):
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __call__(self, s, i):
        return self.a(s, i) or self.b(s, i)


class Map(Parser):
    def __init__(self, p, fn):
        self.p, self.fn = p, fn

    def __call__(self, s, i):
        r = self.p(s, i)
        return (self.fn(r[0]), r[1]) if r else None


number = Regex(r"-?\d+") >> int
boolean = Regex(r"true|false") >> (lambda t: t == "true")
word = Regex(r"[a-z]+")
value = number | boolean | word
key = Regex(r"[a-z_]+")


def parse_pairs(text):
    out, i = {}, 0
    while i < len(text):
        k, i = key(text, i)
        _, i = Regex(r"\s*=\s*")(text, i)
        r = value(text, i)
        if r is None:
            raise ValueError(f"bad value at {i}: {text[i:]!r}")
        out[k], i = r
        m = Regex(r"\s*,\s*")(text, i)
        if m:
            i = m[1]
    return out


print(parse_pairs("port = 8080, debug=true, name = api, retries=-1"))
print(type(value).__name__, type(number).__name__, isinstance(value, Parser))
try:
    parse_pairs("a=1, b=?")
except ValueError as e:
    print("ValueError:", e)
