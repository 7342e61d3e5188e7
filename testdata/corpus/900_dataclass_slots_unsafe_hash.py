"""Dataclasses with slots=True and unsafe_hash=True used in sets and dicts."""
from dataclasses import dataclass, field


@dataclass(slots=True)
class Pixel:
    x: int
    y: int
    color: str = "black"


@dataclass(unsafe_hash=True)
class Tag:
    name: str
    weight: int = field(default=1, hash=False, compare=False)


p = Pixel(1, 2)
p.color = "red"
print(p, hasattr(p, "__dict__"), Pixel.__slots__)
try:
    p.alpha = 0.5
except AttributeError as e:
    print("AttributeError:", e)
tags = {Tag("py", 3), Tag("go"), Tag("py", 9)}
print(len(tags), sorted(t.name for t in tags))
counts = {Tag("py"): 0}
counts[Tag("py", 100)] += 1
print(counts, Tag("a", 1) == Tag("a", 2))
try:
    {Pixel(0, 0)}
except TypeError as e:
    print("TypeError:", e)
