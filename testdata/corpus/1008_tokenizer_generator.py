"""A regex-driven tokenizer written as a generator, feeding a tiny evaluator."""
import re
from typing import NamedTuple, Iterator


class Token(NamedTuple):
    kind: str
    text: str
    pos: int


SPEC = [("NUMBER", r"\d+(?:\.\d+)?"), ("NAME", r"[A-Za-z_]\w*"), ("OP", r"[-+*/()=]"), ("SKIP", r"\s+"), ("BAD", r".")]
PATTERN = re.compile("|".join(f"(?P<{k}>{p})" for k, p in SPEC))


def tokenize(source: str) -> Iterator[Token]:
    for m in PATTERN.finditer(source):
        kind = m.lastgroup
        if kind == "SKIP":
            continue
        if kind == "BAD":
            raise SyntaxError(f"unexpected {m.group()!r} at {m.start()}")
        yield Token(kind, m.group(), m.start())


for tok in tokenize("rate = 3.5 * (hours + 2)"):
    print(tok)

print([t.text for t in tokenize("x+y") if t.kind == "NAME"])
try:
    for tok in tokenize("a = 1 $ 2"):
        print("ok", tok.text)
except SyntaxError as e:
    print("SyntaxError:", e)
counts = {}
for t in tokenize("f(a, b)".replace(",", " +")):
    counts[t.kind] = counts.get(t.kind, 0) + 1
print(counts)
