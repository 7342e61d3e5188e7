# frozen=True: assignment and deletion raise FrozenInstanceError (a subclass of
# AttributeError); instances are hashable.
from dataclasses import dataclass, FrozenInstanceError


@dataclass(frozen=True)
class F:
    a: int
    b: str = "x"


f = F(1)
for action in ("set", "del", "new"):
    try:
        if action == "set":
            f.a = 2
        elif action == "del":
            del f.b
        else:
            f.c = 3
    except FrozenInstanceError as e:
        print(type(e).__name__, e, isinstance(e, AttributeError))
print(hash(f) == hash(F(1)), {f: 1}[F(1, "x")], FrozenInstanceError.__mro__[1].__name__)
