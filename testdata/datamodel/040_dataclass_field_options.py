# field(init=False), repr=False, compare=False and default_factory.
from dataclasses import dataclass, field, fields


@dataclass
class R:
    name: str
    secret: str = field(default="s", repr=False)
    hits: int = field(default=0, compare=False)
    tags: list = field(default_factory=list)
    slug: str = field(init=False)

    def __post_init__(self):
        self.slug = self.name.lower()


r = R("Ana")
print(r, r == R("Ana", hits=5), r == R("Ana", secret="t"))
print(R("B").tags is R("B").tags, [(f.name, f.init, f.repr, f.compare) for f in fields(R)])
try:
    R("x", slug="y")
except TypeError as e:
    print(type(e).__name__, e)
