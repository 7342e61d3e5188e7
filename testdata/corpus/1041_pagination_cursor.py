"""Cursor-based pagination (like many REST APIs) wrapped in a generator."""
import json

ARTICLES = [{"id": f"a{i}", "title": f"Post {i}", "tags": ["py"] if i % 3 == 0 else ["go"]} for i in range(1, 12)]


def api_get(cursor=None, limit=4):
    """Pretend HTTP call returning a JSON string."""
    start = 0 if cursor is None else int(cursor.split(":")[1])
    page = ARTICLES[start:start + limit]
    nxt = f"cur:{start + limit}" if start + limit < len(ARTICLES) else None
    return json.dumps({"data": page, "next_cursor": nxt})


def paginate(limit=4, max_pages=None):
    cursor, pages = None, 0
    while True:
        body = json.loads(api_get(cursor, limit))
        pages += 1
        print(f"page {pages}: {len(body['data'])} items, next={body['next_cursor']}")
        yield from body["data"]
        cursor = body["next_cursor"]
        if cursor is None or (max_pages and pages >= max_pages):
            return pages


titles = [a["title"] for a in paginate() if "py" in a["tags"]]
print(titles)
print([a["id"] for a in paginate(limit=5, max_pages=2)])

gen = paginate(limit=6)
items = []
while True:
    try:
        items.append(next(gen)["id"])
    except StopIteration as stop:
        print(f"{len(items)} items over {stop.value} pages")
        break
