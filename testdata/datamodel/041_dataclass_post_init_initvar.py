# InitVar fields go to __post_init__ and are not fields; ClassVar is not a field.
from dataclasses import dataclass, field, fields, InitVar
from typing import ClassVar


@dataclass
class User:
    name: str
    password: InitVar[str]
    count: ClassVar[int] = 0
    hashed: str = field(init=False, default="")

    def __post_init__(self, password):
        self.hashed = password[::-1]
        User.count += 1


u = User("ana", "secret")
print(u, User.count, [f.name for f in fields(u)], hasattr(u, "password"))
try:
    User("bo")
except TypeError as e:
    print(type(e).__name__, e)
