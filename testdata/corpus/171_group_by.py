from typing import Any, Callable, Dict, List

transactions = [
    {"user": "ann", "category": "food", "amount": 12.5},
    {"user": "bob", "category": "travel", "amount": 220.0},
    {"user": "ann", "category": "travel", "amount": 80.0},
    {"user": "cyd", "category": "food", "amount": 7.25},
    {"user": "bob", "category": "food", "amount": 15.0},
    {"user": "ann", "category": "food", "amount": 4.75},
]


def group_by(rows: List[Dict[str, Any]], key: Callable[[Dict[str, Any]], Any]) -> Dict[Any, List[Dict[str, Any]]]:
    groups: Dict[Any, List[Dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return groups


by_user = group_by(transactions, lambda t: t["user"])
for user, rows in by_user.items():
    total = sum(r["amount"] for r in rows)
    print(f"{user}: {len(rows)} transactions, total {total:.2f}")

by_pair = group_by(transactions, lambda t: (t["user"], t["category"]))
for (user, cat), rows in sorted(by_pair.items()):
    print(user, cat, [r["amount"] for r in rows])
