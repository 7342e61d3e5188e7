from typing import List, TypeVar

T = TypeVar("T")


def chunks(items: List[T], size: int) -> List[List[T]]:
    if size <= 0:
        raise ValueError("size must be positive")
    return [items[i:i + size] for i in range(0, len(items), size)]


def page_info(total: int, page: int, per_page: int) -> dict:
    pages = max(1, -(-total // per_page))
    page = min(max(page, 1), pages)
    start = (page - 1) * per_page
    return {
        "page": page,
        "pages": pages,
        "range": (start + 1, min(start + per_page, total)) if total else (0, 0),
        "has_next": page < pages,
        "has_prev": page > 1,
    }


print(chunks(list(range(10)), 3))
print(chunks(list("abcdef"), 2), chunks([], 4))
for page in (0, 1, 3, 4, 99):
    print(page_info(37, page, 10))
print(page_info(0, 1, 10))
try:
    chunks([1], 0)
except ValueError as e:
    print("error:", e)
