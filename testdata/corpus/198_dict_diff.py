from typing import Any, Dict, List


def diff(old: Dict[str, Any], new: Dict[str, Any], path: str = "") -> List[str]:
    changes = []
    for key in sorted(old.keys() | new.keys()):
        where = f"{path}.{key}" if path else key
        if key not in new:
            changes.append(f"- {where}: {old[key]!r}")
        elif key not in old:
            changes.append(f"+ {where}: {new[key]!r}")
        elif isinstance(old[key], dict) and isinstance(new[key], dict):
            changes.extend(diff(old[key], new[key], where))
        elif old[key] != new[key]:
            changes.append(f"~ {where}: {old[key]!r} -> {new[key]!r}")
    return changes


before = {"name": "svc", "replicas": 2, "env": {"DEBUG": "1", "REGION": "eu"}, "ports": [80]}
after = {"name": "svc", "replicas": 3, "env": {"REGION": "us", "TRACE": "on"}, "ports": [80, 443], "owner": "ops"}
for line in diff(before, after):
    print(line)
print(diff(before, before))
