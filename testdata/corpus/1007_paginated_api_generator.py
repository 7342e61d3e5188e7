"""Iterate over every item of a paged API transparently with a generator."""
ORDERS = [{"id": i, "total": round(i * 7.5 % 40 + 5, 2)} for i in range(1, 24)]
calls = []


def fetch_page(page: int, per_page: int = 5) -> dict:
    calls.append(page)
    start = (page - 1) * per_page
    items = ORDERS[start:start + per_page]
    has_next = start + per_page < len(ORDERS)
    return {"page": page, "items": items, "next": page + 1 if has_next else None}


def all_orders(per_page=5):
    page = 1
    while page is not None:
        response = fetch_page(page, per_page)
        yield from response["items"]
        page = response["next"]


big = [o["id"] for o in all_orders() if o["total"] > 30]
print("big orders:", big)
print("pages fetched:", calls)

calls.clear()
for order in all_orders(per_page=4):
    if order["total"] == 5.0:
        print("first order with minimum total:", order)
        break
print("pages fetched before stopping:", calls)

calls.clear()
print(sum(o["total"] for o in all_orders(per_page=10)), calls)
