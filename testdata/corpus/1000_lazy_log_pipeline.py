"""A lazy pipeline of generator stages over web-server log lines."""
LOG = """\
2024-03-01 10:00:01 GET /index.html 200 512
2024-03-01 10:00:02 GET /missing 404 0
2024-03-01 10:00:03 POST /api/login 200 87
bad line here
2024-03-01 10:00:05 GET /api/items 500 0
2024-03-01 10:00:06 GET /api/items 200 2048
2024-03-01 10:00:07 DELETE /api/items/3 403 0
"""


def read_lines(text):
    for line in text.splitlines():
        if line.strip():
            yield line


def parse(lines):
    for line in lines:
        parts = line.split()
        if len(parts) != 6:
            print("skipping malformed:", repr(line))
            continue
        date, time, method, path, status, size = parts
        yield {"method": method, "path": path, "status": int(status), "size": int(size)}


def only_errors(records):
    return (r for r in records if r["status"] >= 400)


def summarize(records):
    by_status = {}
    for r in records:
        by_status.setdefault(r["status"], []).append(r["path"])
    return by_status


pipeline = only_errors(parse(read_lines(LOG)))
print(type(pipeline).__name__)
report = summarize(pipeline)
for status in sorted(report):
    print(status, report[status])
total = sum(r["size"] for r in parse(read_lines(LOG)) if r["method"] == "GET")
print("GET bytes:", total)
