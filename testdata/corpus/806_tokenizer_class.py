"""A tokenizer class for arithmetic with a Token dataclass and position tracking."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    pos: int


class Lexer:
    SINGLE = {"+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "(": "LPAREN", ")": "RPAREN"}

    def __init__(self, src):
        self.src = src
        self.i = 0

    def tokens(self):
        out = []
        while self.i < len(self.src):
            ch = self.src[self.i]
            if ch.isspace():
                self.i += 1
            elif ch.isdigit():
                start = self.i
                while self.i < len(self.src) and (self.src[self.i].isdigit() or self.src[self.i] == "."):
                    self.i += 1
                out.append(Token("NUM", self.src[start:self.i], start))
            elif ch.isalpha():
                start = self.i
                while self.i < len(self.src) and self.src[self.i].isalnum():
                    self.i += 1
                out.append(Token("NAME", self.src[start:self.i], start))
            elif ch in self.SINGLE:
                out.append(Token(self.SINGLE[ch], ch, self.i))
                self.i += 1
            else:
                raise SyntaxError(f"unexpected {ch!r} at {self.i}")
        return out


for tok in Lexer("3.5 * (x + 42)").tokens():
    print(tok)
print([t.kind for t in Lexer("a-b/c").tokens()])
try:
    Lexer("1 + $").tokens()
except SyntaxError as e:
    print("SyntaxError:", e)
print(Token("NUM", "1", 0) == Token("NUM", "1", 0), len({Token("NUM", "1", 0), Token("NUM", "1", 0)}))
