# json.dumps calls default= for objects it cannot encode; without it the
# TypeError names the class; default's own errors propagate.
import json


class P:
    def __init__(self, x):
        self.x = x


print(json.dumps({"p": P(1), "l": [P(2)]}, default=lambda o: o.__dict__))
print(json.dumps(P(3), default=vars, sort_keys=True))
try:
    json.dumps(P(1))
except TypeError as e:
    print(type(e).__name__, e)


def strict(o):
    raise TypeError(f"refusing {type(o).__name__}")


try:
    json.dumps([1, P(2)], default=strict)
except TypeError as e:
    print(type(e).__name__, e)
