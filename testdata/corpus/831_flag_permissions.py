"""File permissions as an enum.Flag: combining, testing and listing members."""
from enum import Flag, auto


class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXEC = auto()
    ALL = READ | WRITE | EXEC


def describe(p):
    return "".join(ch if flag in p else "-" for ch, flag in zip("rwx", [Perm.READ, Perm.WRITE, Perm.EXEC]))


roles = {
    "guest": Perm.READ,
    "editor": Perm.READ | Perm.WRITE,
    "admin": Perm.ALL,
    "none": Perm(0),
}
for role, p in roles.items():
    print(f"{role:<7}{describe(p)} {p.value} {bool(p)}")
print(Perm.READ | Perm.WRITE)
print(Perm.WRITE in roles["editor"], Perm.EXEC in roles["editor"])
print(roles["admin"] & ~Perm.WRITE)
print(Perm(3), Perm.ALL.value, [m.name for m in Perm])
