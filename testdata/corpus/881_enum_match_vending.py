"""A vending machine whose states and events are Enums, handled with match on members."""
from enum import Enum, auto


class State(Enum):
    IDLE = auto()
    HAS_COIN = auto()
    VENDING = auto()


class Event(Enum):
    COIN = auto()
    PUSH = auto()
    REFUND = auto()
    DONE = auto()


def step(state, event):
    match state, event:
        case State.IDLE, Event.COIN:
            return State.HAS_COIN, "coin accepted"
        case State.HAS_COIN, Event.PUSH:
            return State.VENDING, "vending"
        case State.HAS_COIN, Event.REFUND:
            return State.IDLE, "refunded"
        case State.VENDING, Event.DONE:
            return State.IDLE, "enjoy"
        case _, Event.COIN:
            return state, "coin returned"
        case _:
            return state, f"ignored {event.name.lower()}"


state = State.IDLE
for ev in [Event.PUSH, Event.COIN, Event.COIN, Event.PUSH, Event.REFUND, Event.DONE, Event.COIN, Event.REFUND]:
    state, msg = step(state, ev)
    print(f"{ev.name:<7}-> {state.name:<9}{msg}")
print(State.VENDING.value, [e.value for e in Event])
