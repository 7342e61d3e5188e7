"""A traffic light state machine on an Enum with methods and a transition table."""
from enum import Enum


class Light(Enum):
    RED = "red"
    GREEN = "green"
    YELLOW = "yellow"

    def next(self):
        order = list(Light)
        return order[(order.index(self) + 1) % len(order)]

    @property
    def can_go(self):
        return self is Light.GREEN


DURATION = {Light.RED: 30, Light.GREEN: 25, Light.YELLOW: 5}

state = Light.RED
timeline = []
t = 0
for _ in range(7):
    timeline.append((t, state.name))
    t += DURATION[state]
    state = state.next()
print(timeline)
print(Light("green"), Light["YELLOW"], Light.RED.value)
print(repr(Light.GREEN), Light.GREEN.can_go, Light.RED.can_go)
print([m.value for m in Light], len(Light))
print(Light.RED in Light, isinstance(Light.RED, Light))
try:
    Light("blue")
except ValueError as e:
    print("ValueError:", e)
