# The texts of AttributeError for instances, classes, modules and builtins.
import math


class C:
    pass


cases = [
    ("C().missing", lambda: C().missing),
    ("C.missing", lambda: C.missing),
    ("math.nope", lambda: math.nope),
    ("(1).nope", lambda: (1).nope),
    ("'s'.nope", lambda: "s".nope),
    ("None.x", lambda: None.x),
    ("[].x", lambda: [].x),
]
for label, fn in cases:
    try:
        fn()
    except AttributeError as e:
        print(f"{label:<12}", e)
