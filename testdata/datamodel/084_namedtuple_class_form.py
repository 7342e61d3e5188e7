# typing.NamedTuple class form: defaults, methods, _fields, _field_defaults,
# and the errors of a missing argument and a non-default after a default.
from typing import NamedTuple


class P(NamedTuple):
    x: int
    y: int = 0

    def norm1(self):
        return abs(self.x) + abs(self.y)


p = P(3, -4)
print(p, p.norm1(), p._fields, P._field_defaults, p._replace(y=1), tuple(p), P(1))
try:
    P()
except TypeError as e:
    print(type(e).__name__, e)
try:
    p.x = 1
except AttributeError as e:
    print(type(e).__name__, e)
try:
    class Bad(NamedTuple):
        a: int = 0
        b: int
except TypeError as e:
    print(type(e).__name__, e)
