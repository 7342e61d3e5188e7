"""Serialising objects to JSON with default= and reading them back with object_hook."""
import json
from dataclasses import dataclass, asdict, is_dataclass
from datetime import date
from enum import Enum


class Priority(Enum):
    LOW = 1
    HIGH = 2


@dataclass
class Task:
    title: str
    due: date
    priority: Priority = Priority.LOW


def encode(obj):
    if is_dataclass(obj):
        d = asdict(obj)
        d["__type__"] = type(obj).__name__
        return d
    if isinstance(obj, date):
        return obj.isoformat()
    if isinstance(obj, Enum):
        return obj.name
    raise TypeError(f"cannot encode {type(obj).__name__}")


def decode(d):
    if d.get("__type__") == "Task":
        return Task(d["title"], date.fromisoformat(d["due"]), Priority[d["priority"]])
    return d


tasks = [Task("write", date(2024, 5, 1), Priority.HIGH), Task("read", date(2024, 4, 2))]
text = json.dumps(tasks, default=encode, sort_keys=True)
print(text)
back = json.loads(text, object_hook=decode)
print(back)
print(back == tasks)
try:
    json.dumps({"x": object()}, default=encode)
except TypeError as e:
    print("TypeError:", e)
