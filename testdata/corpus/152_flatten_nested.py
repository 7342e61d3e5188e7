from typing import Any, Dict, List


def flatten_list(items: List[Any]) -> List[Any]:
    result = []
    stack = [iter(items)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, list):
                stack.append(iter(item))
                break
            result.append(item)
        else:
            stack.pop()
    return result


def flatten_dict(d: Dict[str, Any], prefix: str = "", sep: str = ".") -> Dict[str, Any]:
    out = {}
    for key, value in d.items():
        full = f"{prefix}{sep}{key}" if prefix else key
        if isinstance(value, dict) and value:
            out.update(flatten_dict(value, full, sep))
        else:
            out[full] = value
    return out


print(flatten_list([1, [2, 3, [4, [5]]], [], 6, [[7, [8, [9]]]]]))
print(flatten_list(["a", ["b", ["c"]]]))
config = {"db": {"host": "x", "port": 5432, "opts": {"ssl": True}}, "debug": False, "empty": {}}
for k, v in flatten_dict(config).items():
    print(f"{k} = {v!r}")
print(flatten_dict({"a": {"b": 1}}, sep="/"))
