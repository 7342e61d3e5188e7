"""Dispatching JSON commands with match on mappings, sequences and class patterns."""
import json
from dataclasses import dataclass


@dataclass
class Reply:
    ok: bool
    data: object = None


def handle(msg):
    match msg:
        case {"op": "add", "args": [int(a), int(b)]}:
            return Reply(True, a + b)
        case {"op": "concat", "args": [*parts]} if all(isinstance(p, str) for p in parts):
            return Reply(True, "".join(parts))
        case {"op": "echo", **rest}:
            return Reply(True, rest)
        case {"op": str(op)}:
            return Reply(False, f"bad arguments for {op}")
        case _:
            return Reply(False, "no op")


requests = ['{"op": "add", "args": [2, 3]}', '{"op": "concat", "args": ["a", "b", "c"]}',
            '{"op": "echo", "x": 1, "y": [2]}', '{"op": "add", "args": [1, "2"]}', '[1, 2]']
for raw in requests:
    reply = handle(json.loads(raw))
    match reply:
        case Reply(ok=True, data=int() | str() as d):
            print("value:", d)
        case Reply(True, data):
            print("data:", data)
        case Reply(False, reason):
            print("error:", reason)
