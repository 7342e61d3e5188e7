def paginate(items, page=1, per_page=3, *, reverse=False):
    data = list(reversed(items)) if reverse else items
    start = (page - 1) * per_page
    return data[start:start + per_page]


letters = list("abcdefgh")
print(paginate(letters))
print(paginate(letters, 2))
print(paginate(letters, page=3))
print(paginate(letters, 1, 5, reverse=True))
print(paginate(letters, per_page=4, page=2))


def append_item(item, bucket=None):
    if bucket is None:
        bucket = []
    bucket.append(item)
    return bucket


print(append_item(1), append_item(2))
print(append_item(3, [0]))


def connect(host, port=5432, *, timeout=10.0, retries=3):
    return f"{host}:{port} timeout={timeout} retries={retries}"


print(connect("db"))
print(connect("db", 6543, retries=1))
