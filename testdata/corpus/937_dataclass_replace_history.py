"""Immutable game state as frozen dataclasses updated with replace(), keeping a history."""
from dataclasses import dataclass, replace, field, asdict
from typing import Tuple


@dataclass(frozen=True)
class Player:
    name: str
    hp: int = 10
    inventory: Tuple[str, ...] = ()


@dataclass(frozen=True)
class State:
    turn: int
    players: Tuple[Player, ...] = field(default_factory=tuple)

    def update(self, name, **changes):
        players = tuple(replace(p, **changes) if p.name == name else p for p in self.players)
        return replace(self, turn=self.turn + 1, players=players)


s0 = State(0, (Player("ana"), Player("bo", hp=8)))
history = [s0]
history.append(history[-1].update("ana", hp=7))
history.append(history[-1].update("bo", inventory=("sword",)))
history.append(history[-1].update("ana", inventory=("potion", "map"), hp=9))
for s in history:
    print(s.turn, [(p.name, p.hp, p.inventory) for p in s.players])
print(history[0] == s0, history[0].players[0] is history[1].players[1] or history[0].players[1] is history[1].players[1])
print(asdict(history[-1])["players"][0])
print(State(5) == State(5), hash(State(1)) == hash(State(1)))
