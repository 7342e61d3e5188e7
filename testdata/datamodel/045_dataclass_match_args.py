# Dataclasses get __match_args__ from their init fields (not kw_only ones);
# class patterns use them positionally.
from dataclasses import dataclass, field


@dataclass
class Cmd:
    name: str
    args: list = field(default_factory=list)
    verbose: bool = field(default=False, kw_only=True)


print(Cmd.__match_args__)
for c in [Cmd("ls"), Cmd("cp", ["a", "b"]), Cmd("rm", ["x"], verbose=True)]:
    match c:
        case Cmd("ls"):
            print("list")
        case Cmd(name, [src, dst]):
            print(name, src, "->", dst)
        case Cmd(name, verbose=True):
            print(name, "verbosely")
