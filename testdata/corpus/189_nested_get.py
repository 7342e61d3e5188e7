from typing import Any, List, Union

response = {
    "data": {
        "user": {"profile": {"name": "Ana", "langs": ["pt", "en"]}, "stats": None},
        "items": [{"id": 1, "tags": ["x"]}, {"id": 2}],
    }
}


def deep_get(obj: Any, path: Union[str, List], default: Any = None) -> Any:
    keys = path.split(".") if isinstance(path, str) else path
    for key in keys:
        try:
            if isinstance(obj, list):
                obj = obj[int(key)]
            else:
                obj = obj[key]
        except (KeyError, IndexError, ValueError, TypeError):
            return default
    return obj


for path in ["data.user.profile.name", "data.user.profile.langs.1", "data.user.stats.count",
             "data.items.0.tags.0", "data.items.1.tags", "data.items.5", "missing", "data.items.x"]:
    print(f"{path:<28} {deep_get(response, path, '<none>')!r}")
print(deep_get(response, ["data", "items", 1, "id"]))
print(response.get("data", {}).get("user", {}).get("profile", {}).get("age", "unknown"))
