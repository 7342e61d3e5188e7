from typing import Dict, List, Optional, Tuple

counter: int = 0
names: List[str] = ["ann", "bob"]
lookup: Dict[str, int] = {}
pending: Optional[str]


def register(name: str, age: int = 0, *, admin: bool = False) -> Tuple[str, int, bool]:
    global counter
    counter += 1
    lookup[name] = age
    return name, age, admin


def average_age(data: Dict[str, int]) -> float:
    total: float = 0.0
    for _name, age in data.items():
        total += age
    return total / len(data) if data else 0.0


print(register("ann", 31))
print(register("bob", admin=True))
print(register(name="cy", age=45))
print(counter, lookup, f"{average_age(lookup):.2f}")
pending = None
print(pending)
