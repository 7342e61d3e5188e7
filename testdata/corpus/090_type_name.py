from typing import Any


def describe(x: Any) -> str:
    return f"{x!r} is a {type(x).__name__}"


for x in [42, 3.14, "hi", [1], (1, 2), {"a": 1}, None, True, set(), frozenset([1]), range(3)]:
    print(describe(x))

print(type(1) == int, type(True) == int, type(True) == bool, type("") is str)
print(type(1.0) is float, type([]) == list, type({}) == dict, type(None).__name__)
print(type(3)(4.9), type("x")(12), type([])("ab"))

def to_json_type(v):
    names = {int: "integer", float: "number", str: "string", bool: "boolean", list: "array", dict: "object"}
    return names.get(type(v), "null" if v is None else "unknown")

print([to_json_type(v) for v in [1, 1.5, "s", False, [], {}, None, (1,)]])
