from typing import List, Dict, Tuple


def validate_user(user: Dict) -> List[str]:
    errors = []
    name = user.get("name", "")
    if not name:
        errors.append("name is required")
    elif len(name) > 10:
        errors.append(f"name too long ({len(name)} > 10)")
    try:
        age = int(user.get("age", ""))
        if not 0 <= age <= 150:
            errors.append(f"age out of range: {age}")
    except ValueError:
        errors.append(f"age is not a number: {user.get('age')!r}")
    email = user.get("email", "")
    if email.count("@") != 1 or "." not in email.split("@")[-1]:
        errors.append(f"invalid email: {email!r}")
    return errors


users = [
    {"name": "ann", "age": "34", "email": "ann@example.com"},
    {"name": "", "age": "x", "email": "nope"},
    {"name": "Bartholomew the Great", "age": "200", "email": "b@b"},
    {"name": "Zoë", "age": " 7 ", "email": "zoe@école.fr"},
]
report: List[Tuple[str, List[str]]] = []
for u in users:
    report.append((u["name"] or "<blank>", validate_user(u)))
for name, errs in report:
    status = "OK" if not errs else "; ".join(errs)
    print(f"{name}: {status}")
print(sum(1 for _, e in report if not e), "valid of", len(report))
