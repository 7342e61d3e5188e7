from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

Row = Dict[str, Any]
Handler = Callable[[Row], Optional[str]]


def first_error(rows: Iterable[Row], checks: Sequence[Handler]) -> Optional[Tuple[int, str]]:
    for i, row in enumerate(rows):
        for check in checks:
            msg = check(row)
            if msg is not None:
                return i, msg
    return None


def needs_name(row: Row) -> Optional[str]:
    return None if row.get("name") else "missing name"


def positive_qty(row: Row) -> Optional[str]:
    qty: Union[int, float] = row.get("qty", 0)
    return None if qty > 0 else f"bad qty {qty}"


rows: List[Row] = [{"name": "a", "qty": 1}, {"name": "b", "qty": 0}, {"qty": 3}]
print(first_error(rows, [needs_name, positive_qty]))
print(first_error(rows[:1], [needs_name, positive_qty]))
tags: Set[str] = {"x"}
print(sorted(tags), first_error([], []))
