"""Parsing a Markdown table into row objects and aligning it again."""
from dataclasses import dataclass

TABLE = """
| name  | lang | stars |
|-------|:----:|------:|
| flask | py   | 65000 |
| gin   | go   | 75000 |
| rails | rb   | 55000 |
"""


@dataclass
class Repo:
    name: str
    lang: str
    stars: int

    @classmethod
    def from_cells(cls, cells):
        return cls(cells[0], cells[1], int(cells[2]))


class MarkdownTable:
    def __init__(self, text):
        lines = [l.strip() for l in text.strip().splitlines()]
        split = lambda l: [c.strip() for c in l.strip("|").split("|")]
        self.header = split(lines[0])
        self.align = ["c" if s.startswith(":") and s.endswith(":") else "r" if s.endswith(":") else "l"
                      for s in split(lines[1])]
        self.rows = [split(l) for l in lines[2:]]

    def __iter__(self):
        return iter(self.rows)

    def render(self):
        widths = [max(len(r[i]) for r in [self.header] + self.rows) for i in range(len(self.header))]
        just = {"l": str.ljust, "r": str.rjust, "c": str.center}
        out = []
        for r in [self.header] + self.rows:
            out.append("| " + " | ".join(just[a](c, w) for c, a, w in zip(r, self.align, widths)) + " |")
        return "\n".join(out)


t = MarkdownTable(TABLE)
repos = [Repo.from_cells(r) for r in t]
print(t.header, t.align)
print(max(repos, key=lambda r: r.stars))
print(t.render())
print(sum(r.stars for r in repos) // len(repos))
